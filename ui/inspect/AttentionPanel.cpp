#include "inspect/AttentionPanel.h"

#include <QComboBox>
#include <QFontMetricsF>
#include <QHBoxLayout>
#include <QHelpEvent>
#include <QLabel>
#include <QPainter>
#include <QToolTip>
#include <QVBoxLayout>

#include <algorithm>
#include <numeric>

#include "base/ColorMaps.h"
#include "inspect/HoverText.h"

namespace ade::ui {

std::vector<int> attentionOrder(const AttentionScene& scene) {
    if (!scene.view) return {};
    const int n = static_cast<int>(scene.view->weights.rows());
    std::vector<int> order(n);
    std::iota(order.begin(), order.end(), 0);
    const int f = scene.sortFeature;
    if (f >= 0 && f < static_cast<int>(scene.view->features.size()) &&
        scene.view->features[f].size() == n) {
        const Eigen::VectorXd& key = scene.view->features[f];
        std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return key(a) < key(b); });
    }
    return order;
}

std::vector<AttentionHit> paintAttention(QPainter& p, const QRectF& area,
                                         const AttentionScene& scene) {
    std::vector<AttentionHit> hits;
    p.save();
    p.fillRect(area, Qt::white);
    p.setRenderHint(QPainter::SmoothPixmapTransform, false);
    const QFontMetricsF fm(p.font());
    double top = area.top() + 4;
    p.setPen(Qt::black);
    if (!scene.heading.isEmpty()) {
        QFont bold = p.font();
        bold.setBold(true);
        const QFont normal = p.font();
        p.setFont(bold);
        p.drawText(QRectF(area.left() + 6, top, area.width() - 12, fm.height() + 2),
                   Qt::AlignLeft | Qt::AlignVCenter, scene.heading);
        p.setFont(normal);
        top += fm.height() + 6;
    }
    if (!scene.view || scene.view->weights.size() == 0) {
        p.drawText(QRectF(area.left(), top, area.width(), area.bottom() - top),
                   Qt::AlignCenter | Qt::TextWordWrap, scene.note);
        p.restore();
        return hits;
    }
    const ade::AttentionView& v = *scene.view;
    const QRectF titleRect(area.left() + 6, top, area.width() - 12, 3 * fm.height());
    const QRectF used = p.boundingRect(titleRect, Qt::TextWordWrap, QString::fromStdString(v.title));
    p.drawText(titleRect, Qt::TextWordWrap, QString::fromStdString(v.title));
    top += std::min(used.height(), titleRect.height()) + 6;
    const bool withRef = !v.referenceTitle.empty() && v.reference.rows() == v.weights.rows();
    const std::vector<int> order = attentionOrder(scene);
    const int n = static_cast<int>(order.size());
    double scale = v.weights.maxCoeff();
    if (withRef) scale = std::max(scale, v.reference.maxCoeff());
    if (!(scale > 0)) scale = 1.0;
    const double barArea = 86, axis = fm.height() + 6;
    const int panels = withRef ? 2 : 1;
    const double gap = 28;
    const double availW = area.width() - 12 - barArea - axis - (panels - 1) * gap;
    const double availH = area.bottom() - top - 2 * fm.height() - 16;
    const double side = std::max(20.0, std::min(availW / panels, availH));
    const QString sortName =
        scene.sortFeature >= 0 && scene.sortFeature < static_cast<int>(v.featureNames.size())
            ? QString::fromStdString(v.featureNames[scene.sortFeature])
            : QStringLiteral("position i");
    double x = area.left() + 6 + axis;
    const double y = top + fm.height() + 4;
    for (int k = 0; k < panels; ++k) {
        const Eigen::MatrixXd& m = k == 0 ? v.weights : v.reference;
        QImage img(n, n, QImage::Format_RGB32);
        for (int i = 0; i < n; ++i)
            for (int j = 0; j < n; ++j)
                img.setPixel(j, i, sequentialColor(m(order[i], order[j]), scale).rgb());
        const QRectF r(x, y, side, side);
        p.setPen(Qt::black);
        const QString title = k == 0 ? QObject::tr("model") : QString::fromStdString(v.referenceTitle);
        p.drawText(QRectF(x, top, side, fm.height() + 2), Qt::AlignHCenter | Qt::AlignVCenter,
                   fm.elidedText(title, Qt::ElideRight, side));
        p.drawImage(r, img);
        p.setPen(QPen(Qt::darkGray, 0));
        p.setBrush(Qt::NoBrush);
        p.drawRect(r);
        p.setPen(Qt::black);
        p.drawText(QRectF(x, r.bottom() + 2, side, fm.height() + 2), Qt::AlignHCenter,
                   fm.elidedText(QObject::tr("key token j (sorted by %1) →").arg(sortName),
                                 Qt::ElideRight, side));
        if (k == 0) {
            p.save();
            p.translate(r.left() - 4, r.top() + side / 2);
            p.rotate(-90);
            p.drawText(QRectF(-side / 2, -fm.height(), side, fm.height()), Qt::AlignHCenter,
                       fm.elidedText(QObject::tr("← query token i"), Qt::ElideRight, side));
            p.restore();
        }
        hits.push_back({r, k == 1});
        x += side + gap;
    }
    drawColorBar(p, QRectF(area.right() - barArea + 8, y + 4, 14, side - 4), 0.0, scale, false,
                 QObject::tr("weight"));
    p.restore();
    return hits;
}

class AttentionPanel::Canvas : public QWidget {
  public:
    explicit Canvas(AttentionPanel* owner) : QWidget(owner), owner_(owner) {
        setObjectName(QStringLiteral("attentionCanvas"));
        setMouseTracking(true);
        setMinimumSize(300, 220);
    }

  protected:
    void paintEvent(QPaintEvent*) override {
        QPainter p(this);
        owner_->hits_ = paintAttention(p, rect(), owner_->scene_);
    }
    bool event(QEvent* e) override {
        return showHoverText(this, e, [this](QPoint at) { return owner_->toolTipAt(at); }) ||
               QWidget::event(e);
    }

  private:
    AttentionPanel* owner_;
};

AttentionPanel::AttentionPanel(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("attentionPanel"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(6, 4, 6, 0);
    sortLabel_ = new QLabel(tr("Sort tokens by:"), this);
    bar->addWidget(sortLabel_);
    sort_ = new QComboBox(this);
    sort_->setObjectName(QStringLiteral("attentionSort"));
    sort_->setToolTip(tr("Order queries and keys by a token feature (the same order for both)"));
    bar->addWidget(sort_);
    bar->addStretch(1);
    layout->addLayout(bar);
    canvas_ = new Canvas(this);
    layout->addWidget(canvas_, 1);
    connect(sort_, &QComboBox::currentIndexChanged, this, [this](int i) {
        scene_.sortFeature = i - 1;
        canvas_->update();
    });
}

void AttentionPanel::setScene(AttentionScene scene) {
    QStringList names;
    if (scene.view)
        for (const auto& f : scene.view->featureNames) names << QString::fromStdString(f);
    QStringList old;
    for (int i = 1; i < sort_->count(); ++i) old << sort_->itemText(i);
    const int keep = sort_->currentIndex();
    scene_ = std::move(scene);
    if (names != old) {
        const QSignalBlocker block(sort_);
        sort_->clear();
        sort_->addItem(tr("token order"));
        sort_->addItems(names);
        sort_->setCurrentIndex(0);
        scene_.sortFeature = -1;
    } else if (scene_.sortFeature < 0) {
        scene_.sortFeature = keep - 1;
    } else {
        const QSignalBlocker block(sort_);
        sort_->setCurrentIndex(scene_.sortFeature + 1);
    }
    // No attention (Experiment C's network) or no data yet: nothing to sort, so no empty box.
    sortLabel_->setVisible(!names.isEmpty());
    sort_->setVisible(!names.isEmpty());
    canvas_->update();
}

QString AttentionPanel::toolTipAt(const QPointF& pos) const {
    if (!scene_.view) return {};
    const std::vector<int> order = attentionOrder(scene_);
    const int n = static_cast<int>(order.size());
    for (const AttentionHit& h : hits_) {
        if (!h.rect.contains(pos) || n == 0) continue;
        const int i = std::clamp(static_cast<int>((pos.y() - h.rect.top()) / h.rect.height() * n), 0, n - 1);
        const int j = std::clamp(static_cast<int>((pos.x() - h.rect.left()) / h.rect.width() * n), 0, n - 1);
        const Eigen::MatrixXd& m = h.reference ? scene_.view->reference : scene_.view->weights;
        const QString who = h.reference ? QString::fromStdString(scene_.view->referenceTitle)
                                        : tr("model");
        return tr("%1: query token i = %2 attends to key token j = %3 with weight %4")
            .arg(who)
            .arg(order[i] + 1)
            .arg(order[j] + 1)
            .arg(formatValue(m(order[i], order[j])));
    }
    return {};
}

}  // namespace ade::ui
