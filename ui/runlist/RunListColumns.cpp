#include "runlist/RunListColumns.h"

#include <QHeaderView>
#include <QPainter>
#include <QPixmap>
#include <QTreeWidget>

#include <algorithm>
#include <cmath>
#include <set>

#include "runs/RunStore.h"
#include "base/Palette.h"
#include "config/ParamSpec.h"
#include "experiments/ExperimentRegistry.h"

namespace ade::ui {

bool RunItem::operator<(const QTreeWidgetItem& other) const {
    const QTreeWidget* tree = treeWidget();
    const int col = tree ? tree->sortColumn() : 0;
    const QVariant a = data(col, kSortRole);
    const QVariant b = other.data(col, kSortRole);
    if (a.isValid() || b.isValid()) {
        const double x = a.isValid() ? a.toDouble() : NAN;
        const double y = b.isValid() ? b.toDouble() : NAN;
        if (std::isnan(x) || std::isnan(y)) {
            // Qt sorts descending with "greater than" = swapped "less than": the answer that
            // keeps a missing value last depends on the order.
            const bool ascending =
                !tree || tree->header()->sortIndicatorOrder() == Qt::AscendingOrder;
            if (std::isnan(x) && std::isnan(y)) return false;
            return std::isnan(x) ? !ascending : ascending;
        }
        return x < y;
    }
    return QString::localeAwareCompare(text(col), other.text(col)) < 0;
}

MetricStats metricStats(const std::vector<double>& v) {
    BestSoFar scan;
    return metricStats(v, scan);
}

MetricStats metricStats(const std::vector<double>& v, BestSoFar& scan) {
    MetricStats s{NAN, NAN, NAN};
    if (v.size() < scan.read) scan = BestSoFar{};
    if (v.empty()) return s;
    s.final = v.back();
    for (std::size_t i = scan.read; i < v.size(); ++i)
        if (std::isfinite(v[i])) scan.best = std::min(scan.best, v[i]);
    scan.read = v.size();
    s.best = std::isfinite(scan.best) ? scan.best : NAN;
    const std::size_t tail = std::max<std::size_t>(1, v.size() / 10);
    double sum = 0;
    for (std::size_t i = v.size() - tail; i < v.size(); ++i)
        sum += v[i];
    s.floor = sum / static_cast<double>(tail);
    return s;
}

std::vector<std::pair<std::string, QString>> runMetrics(const RunStore& store) {
    std::vector<std::pair<std::string, QString>> out;
    std::set<std::string> seen;
    for (const auto& r : store.runs())
        for (const std::string& c : r->columns) {
            if (!seen.insert(c).second) continue;
            const ade::MetricInfo m = ade::describeColumn(r->config.experiment(), c);
            if (!m.chart.empty()) out.emplace_back(c, QString::fromStdString(m.label));
        }
    return out;
}

std::vector<std::string> differingKeys(const RunStore& store, std::size_t max) {
    std::vector<std::string> keys;
    for (const ade::ParamSpec& spec : ade::ParamRegistry::instance().all()) {
        if (spec.key == "experiment") continue;  // a column of its own
        std::set<std::string> values;
        for (const auto& r : store.runs())
            if (r->config.isRelevant(spec.key)) values.insert(r->config.get(spec.key).dump());
        if (values.size() >= 2) keys.push_back(spec.key);
        if (keys.size() == max) break;
    }
    return keys;
}

QIcon runSwatch(int colorIndex) {
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

}  // namespace ade::ui
