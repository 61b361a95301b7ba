#include "RunListWidget.h"

#include <QHeaderView>
#include <QMenu>
#include <QPainter>
#include <QPixmap>

#include <algorithm>
#include <cmath>
#include <utility>

#include "RunStore.h"
#include "charts/Palette.h"
#include "experiments/ExperimentRegistry.h"

namespace ade::ui {

namespace {
enum Col { ColName, ColExperiment, ColState, ColIter, ColFinal, ColParams, NCols };

// The run's colour in the shape of its second cue (RunMarker): runs after the palette's eight
// colours differ by shape as well as by shade.
QIcon swatch(int colorIndex) {
    QPixmap pm(14, 14);
    pm.fill(Qt::transparent);
    QPainter p(&pm);
    p.setRenderHint(QPainter::Antialiasing);
    p.setBrush(paletteColor(colorIndex));
    p.setPen(Qt::NoPen);
    switch (runMarker(colorIndex)) {
        case RunMarker::Square:
            p.drawRoundedRect(QRectF(1, 1, 12, 12), 3, 3);
            break;
        case RunMarker::Circle:
            p.drawEllipse(QRectF(1, 1, 12, 12));
            break;
        case RunMarker::Triangle:
            p.drawPolygon(QPolygonF({QPointF(7, 1), QPointF(13, 13), QPointF(1, 13)}));
            break;
        case RunMarker::Diamond:
            p.drawPolygon(QPolygonF({QPointF(7, 0), QPointF(14, 7), QPointF(7, 14), QPointF(0, 7)}));
            break;
    }
    return QIcon(pm);
}

QString finalMetrics(const RunRecord& r) {
    // The experiment's headline metric, then the test loss, by their labels.
    const ade::ExperimentInfo* info = ade::findExperiment(r.config.experiment());
    std::vector<std::string> preferred = {"test_loss", "train_loss"};
    if (info && !info->headlineMetric.empty())
        preferred.insert(preferred.begin(), info->headlineMetric);
    QStringList parts;
    for (const std::string& m : preferred) {
        if (r.column(m) < 0) continue;
        const QString label = QString::fromStdString(ade::describeColumn(r.config.experiment(), m).label);
        const QString text = QStringLiteral("%1 %2").arg(label).arg(r.last(m), 0, 'g', 4);
        if (!parts.contains(text)) parts << text;
        if (parts.size() == 2) break;
    }
    return parts.join(QStringLiteral(", "));
}
}  // namespace

RunListWidget::RunListWidget(RunStore* store, QWidget* parent)
    : QTreeWidget(parent), store_(store) {
    setObjectName(QStringLiteral("runList"));
    setColumnCount(NCols);
    setHeaderLabels({tr("Run"), tr("Experiment"), tr("State"), tr("Iteration"),
                     tr("Final metrics"), tr("Key parameters")});
    setRootIsDecorated(false);
    setSelectionMode(QAbstractItemView::ExtendedSelection);
    setEditTriggers(QAbstractItemView::EditKeyPressed | QAbstractItemView::DoubleClicked);
    setContextMenuPolicy(Qt::CustomContextMenu);
    setUniformRowHeights(true);
    header()->setStretchLastSection(true);
    header()->setSectionResizeMode(QHeaderView::Interactive);
    setColumnWidth(ColName, 180);
    header()->setSectionResizeMode(ColExperiment, QHeaderView::ResizeToContents);
    header()->setSectionResizeMode(ColState, QHeaderView::ResizeToContents);
    header()->setSectionResizeMode(ColIter, QHeaderView::ResizeToContents);
    setColumnWidth(ColFinal, 260);
    connect(store, &RunStore::runAdded, this, &RunListWidget::addRow);
    connect(store, &RunStore::runChanged, this, &RunListWidget::updateRow);
    progressTimer_.setSingleShot(true);
    progressTimer_.setInterval(200);
    connect(&progressTimer_, &QTimer::timeout, this, [this] {
        const QSet<int> ids = std::exchange(progressPending_, {});
        for (int id : ids)
            updateProgress(id);
    });
    connect(store, &RunStore::dataAppended, this, [this](int id) {
        progressPending_.insert(id);
        if (!progressTimer_.isActive()) progressTimer_.start();
    });
    connect(store, &RunStore::runRemoved, this, &RunListWidget::removeRow);
    connect(this, &QTreeWidget::itemChanged, this, [this](QTreeWidgetItem* item, int column) {
        if (updating_ || column != ColName) return;
        const int id = item->data(ColName, Qt::UserRole).toInt();
        store_->setVisible(id, item->checkState(ColName) == Qt::Checked);
        store_->rename(id, item->text(ColName));
        updateRow(id);  // the store may have refused an empty name
    });
    connect(this, &QWidget::customContextMenuRequested, this, &RunListWidget::showMenu);
    for (const auto& r : store->runs())
        addRow(r->id);
}

QList<int> RunListWidget::selectedRunIds() const {
    QList<int> ids;
    for (QTreeWidgetItem* it : selectedItems())
        ids << it->data(ColName, Qt::UserRole).toInt();
    return ids;
}

QTreeWidgetItem* RunListWidget::itemForRun(int id) const {
    for (int i = 0; i < topLevelItemCount(); ++i)
        if (topLevelItem(i)->data(ColName, Qt::UserRole).toInt() == id) return topLevelItem(i);
    return nullptr;
}

void RunListWidget::addRow(int id) {
    auto* item = new QTreeWidgetItem;
    item->setFlags(item->flags() | Qt::ItemIsEditable | Qt::ItemIsUserCheckable);
    item->setData(ColName, Qt::UserRole, id);
    updating_ = true;
    // In the store's order (a reset run keeps its place).
    const int at = store_->indexOf(id);
    insertTopLevelItem(at < 0 ? topLevelItemCount() : std::min(at, topLevelItemCount()), item);
    updating_ = false;
    updateRow(id);
    scrollToItem(item);  // a new run is never left below the fold
}

void RunListWidget::updateRow(int id) {
    const RunRecord* r = store_->run(id);
    QTreeWidgetItem* item = itemForRun(id);
    if (!r || !item) return;
    updating_ = true;
    item->setText(ColName, r->name);
    // A new swatch only when the colour changes: a new QIcon on every update (30 Hz per active
    // run) put a new entry into the global QPixmapCache at every repaint, so memory grew with
    // every record until the cache evicted everything else.
    const QVariant rgb = QVariant::fromValue(paletteColor(r->colorIndex).rgba());
    if (item->data(ColName, Qt::UserRole + 1) != rgb) {
        item->setIcon(ColName, swatch(r->colorIndex));
        item->setData(ColName, Qt::UserRole + 1, rgb);
    }
    item->setCheckState(ColName, r->visible ? Qt::Checked : Qt::Unchecked);
    const std::string exp = r->config.experiment();
    item->setText(ColExperiment, QString::fromStdString(exp).toUpper());
    if (const ade::ExperimentInfo* info = ade::findExperiment(exp))
        item->setToolTip(ColExperiment, QString::fromStdString(info->title));
    item->setText(ColState, stateText(r->state));
    item->setToolTip(ColState, r->message);
    item->setText(ColIter, QString::number(r->lastIteration()));
    item->setText(ColFinal, finalMetrics(*r));
    item->setText(ColParams, QString::fromStdString(experimentBrief(r->config)));
    item->setToolTip(ColParams, item->text(ColParams));
    updating_ = false;
}

void RunListWidget::updateProgress(int id) {
    const RunRecord* r = store_->run(id);
    QTreeWidgetItem* item = itemForRun(id);
    if (!r || !item) return;
    updating_ = true;
    item->setText(ColIter, QString::number(r->lastIteration()));
    item->setText(ColFinal, finalMetrics(*r));
    updating_ = false;
}

void RunListWidget::removeRow(int id) {
    delete itemForRun(id);
}

void RunListWidget::showMenu(const QPoint& pos) {
    QTreeWidgetItem* item = itemAt(pos);
    if (!item) return;
    const int id = item->data(ColName, Qt::UserRole).toInt();
    const RunRecord* r = store_->run(id);
    if (!r) return;
    QMenu menu(this);
    menu.addAction(tr("Rename"), this, [this, item] { editItem(item, ColName); });
    menu.addAction(r->visible ? tr("Hide") : tr("Show"), this,
                   [this, id, r] { store_->setVisible(id, !r->visible); });
    menu.addAction(tr("Edit and rerun"), this, [this, id] { emit editRequested(id); });
    menu.addAction(tr("Export metrics CSV…"), this, [this, id] { emit exportRequested(id); });
    menu.addSeparator();
    menu.addAction(tr("Delete"), this, [this, id] { emit deleteRequested(id); });
    menu.exec(viewport()->mapToGlobal(pos));
}

}  // namespace ade::ui
