#include "sweep/SweepTable.h"

#include <QHeaderView>
#include <QScrollBar>

#include <algorithm>
#include <cmath>

#include "base/ColorMaps.h"

namespace ade::ui {

namespace {

constexpr int kConfigRole = Qt::UserRole + 1;
constexpr int kSortRole = Qt::UserRole + 2;
constexpr int kTrialStateRole = Qt::UserRole + 3;  // sorted before kSortRole (an Optuna trial's state)

// Sorts by a number when both items have one (kSortRole), else by text; "no value" sorts last.
// Items with a group (kTrialStateRole) sort by it first: complete trials before pruned ones.
class SortItem : public QTableWidgetItem {
  public:
    using QTableWidgetItem::QTableWidgetItem;
    bool operator<(const QTableWidgetItem& other) const override {
        const QVariant ga = data(kTrialStateRole), gb = other.data(kTrialStateRole);
        if (ga.isValid() && gb.isValid() && ga.toInt() != gb.toInt()) return ga.toInt() < gb.toInt();
        const QVariant a = data(kSortRole), b = other.data(kSortRole);
        if (a.isValid() && b.isValid()) {
            const double x = a.toDouble(), y = b.toDouble();
            if (std::isfinite(x) != std::isfinite(y)) return std::isfinite(x);
            return x < y;
        }
        return QTableWidgetItem::operator<(other);
    }
};

SortItem* makeItem(const QString& text, double sortValue = NAN, bool numeric = false) {
    auto* it = new SortItem(text);
    if (numeric) it->setData(kSortRole, sortValue);
    it->setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled);
    return it;
}

}  // namespace

SweepTable::SweepTable(QWidget* parent) : QTableWidget(parent) {
    setObjectName(QStringLiteral("sweepTable"));
    setSelectionBehavior(QAbstractItemView::SelectRows);
    setSelectionMode(QAbstractItemView::SingleSelection);
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    verticalHeader()->hide();
    // Rows one line of text high with a little air (the style's default is half a line more):
    // more of them in view on a small screen.
    verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 8);
    horizontalHeader()->setStretchLastSection(false);
    setSortingEnabled(true);
    setAlternatingRowColors(true);
    setToolTip(tr("One row per config: mean ± sd of the objective over its finished seeds. "
                  "Click a header to sort; double-click a row to show its runs' curves."));
    connect(this, &QTableWidget::currentCellChanged, this, [this](int row) {
        if (!filling_) emit configSelected(configOfRow(row));
    });
    connect(horizontalHeader(), &QHeaderView::sectionClicked, this,
            [this](int section) { userSort_ = section; });
    connect(this, &QTableWidget::cellDoubleClicked, this,
            [this](int row) { emit configActivated(configOfRow(row)); });
}

int SweepTable::configOfRow(int row) const {
    const QTableWidgetItem* it = row >= 0 ? item(row, 0) : nullptr;
    return it ? it->data(kConfigRole).toInt() : -1;
}

int SweepTable::selectedConfig() const {
    return configOfRow(currentRow());
}

void SweepTable::selectConfig(int index) {
    for (int r = 0; r < rowCount(); ++r)
        if (configOfRow(r) == index) {
            filling_ = true;
            setCurrentCell(r, 0);
            scrollToItem(QTableWidget::item(r, 0));
            filling_ = false;
            return;
        }
}

QSize SweepTable::minimumSizeHint() const {
    // The header and kMinRows rows: a table of one or two rows says little (issue 30).
    const QSize base = QTableWidget::minimumSizeHint();
    const int rows = horizontalHeader()->sizeHint().height() +
                     kMinRows * verticalHeader()->defaultSectionSize() + 2 * frameWidth() +
                     horizontalScrollBar()->sizeHint().height();
    return {base.width(), std::max(base.height(), rows)};
}

void SweepTable::resizeEvent(QResizeEvent* event) {
    QTableWidget::resizeEvent(event);
    fitColumns();
}

void SweepTable::fitColumns() {
    // The objective's column takes the room left (not "Failed" at the far right), but never
    // less than its contents ("mean ± sd" and its numbers were cut at 1024x768): the table
    // scrolls sideways instead.
    if (meanColumn_ < 0 || meanColumn_ >= columnCount()) return;
    int others = 0;
    for (int c = 0; c < columnCount(); ++c)
        if (c != meanColumn_) others += columnWidth(c);
    setColumnWidth(meanColumn_, std::max(meanWidth_, viewport()->width() - others));
}

void SweepTable::setResults(const SweepResults& results) {
    const int keep = selectedConfig();
    results_ = results;
    filling_ = true;
    const Qt::SortOrder order = horizontalHeader()->sortIndicatorOrder();
    const int sortColumn = userSort_;
    setSortingEnabled(false);
    const bool optuna = results_.optuna;
    bool labels = false;
    for (const auto& c : results_.configs)
        labels = labels || c.label != results_.configs.front().label;
    labels = labels && !optuna;
    // A study's trial has one value and a state, not a mean over seeds.
    const int first = optuna ? 1 : 0;  // the keys' first column
    QStringList header;
    if (optuna) header << tr("Trial");
    for (const auto& k : results_.keys)
        header << keyLabel(k);
    if (labels) header << tr("Run");
    if (optuna)  // the trial's value, or what Rank by ranks the trials by
        header << (results_.metric.isEmpty() || results_.metric == QLatin1String("value")
                       ? tr("Value")
                       : results_.metricLabel)
               << tr("State");
    else
        header << tr("mean ± sd") << tr("Seeds") << tr("Failed");
    if (results_.halving) header << tr("Rung") << tr("Iterations");
    setColumnCount(header.size());
    setHorizontalHeaderLabels(header);
    for (int k = 0; k < static_cast<int>(results_.keys.size()); ++k)
        horizontalHeaderItem(first + k)->setToolTip(keyHelp(results_.keys[k]));
    const int meanColumn = first + static_cast<int>(results_.keys.size()) + (labels ? 1 : 0);
    if (optuna) {
        horizontalHeaderItem(0)->setToolTip(tr("The Optuna trial's number"));
        horizontalHeaderItem(meanColumn)
            ->setToolTip(tr("The trial's value (%1 better); a pruned trial's is the last "
                            "intermediate value it reported. Sorted complete trials first, "
                            "then pruned, failed, running")
                             .arg(results_.lowerIsBetter ? tr("lower") : tr("higher")));
        horizontalHeaderItem(meanColumn + 1)
            ->setToolTip(tr("complete, pruned at iteration N (the step of its last report), "
                            "failed, running or waiting. The best trial (bold) is the best "
                            "complete one."));
    } else {
        horizontalHeaderItem(meanColumn)
            ->setToolTip(tr("%1: mean ± sd over the config's finished seeds (sd with n − 1)")
                             .arg(results_.metricLabel));
        horizontalHeaderItem(columnCount() - (results_.halving ? 4 : 2))
            ->setToolTip(tr("Seeds that finished; diverged or failed seeds count under Failed"));
    }
    setToolTip(optuna ? tr("One row per Optuna trial: its value and state. Click a header to "
                           "sort; double-click a row to show the trial's curve (its "
                           "intermediate values).")
                      : tr("One row per config: mean ± sd of the objective over its finished "
                           "seeds. Click a header to sort; double-click a row to show its runs' "
                           "curves."));
    setRowCount(static_cast<int>(results_.configs.size()));
    const int best = results_.best();
    for (int i = 0; i < static_cast<int>(results_.configs.size()); ++i) {
        const auto& c = results_.configs[i];
        int col = 0;
        std::vector<QTableWidgetItem*> row;
        if (optuna) {
            const int number = results_.trialNumber(i);
            row.push_back(makeItem(number >= 0 ? QString::number(number) : QString(), number,
                                   number >= 0));
        }
        for (const auto& k : results_.keys) {
            const auto v = results_.number(i, k);
            row.push_back(makeItem(results_.text(i, k), v.value_or(NAN), v.has_value()));
        }
        if (labels) row.push_back(makeItem(QString::fromStdString(c.label)));
        const double key = results_.lowerIsBetter ? c.mean : -c.mean;
        auto* mean = makeItem(meanSdText(c), key, true);
        QStringList seeds;
        for (double s : c.perSeed)
            seeds << formatValue(s);
        if (optuna) {
            mean->setData(kTrialStateRole, results_.stateRank(i));
            const int rank = results_.stateRank(i);
            mean->setToolTip(rank == 1   ? tr("the last intermediate value it reported")
                             : rank == 0 ? tr("the trial's value")
                                         : tr("no value"));
            row.push_back(mean);
            auto* state = makeItem(results_.trialState(i), results_.trialNumber(i), true);
            state->setData(kTrialStateRole, rank);
            if (rank == 1)
                state->setToolTip(tr("Its pruner stopped it after its report at iteration %1: "
                                     "its value is an intermediate one, so it is not ranked "
                                     "against the complete trials")
                                      .arg(c.doneMax));
            row.push_back(state);
        } else {
            mean->setToolTip(tr("per seed: %1").arg(seeds.join(QStringLiteral(", "))));
            row.push_back(mean);
            const QString doneText = c.seedsCapped > 0
                                         ? tr("%1 (%2 cap)").arg(c.seedsDone).arg(c.seedsCapped)
                                         : QString::number(c.seedsDone);
            auto* done = makeItem(doneText, c.seedsDone, true);
            if (c.seedsCapped > 0)
                done->setToolTip(tr("%1 of the %2 seeds reached the iteration cap before the "
                                    "stopping rule: their value is not converged")
                                     .arg(c.seedsCapped)
                                     .arg(c.seedsDone));
            row.push_back(done);
            row.push_back(makeItem(QString::number(c.seedsFailed), c.seedsFailed, true));
        }
        if (results_.halving) {
            row.push_back(makeItem(c.rung >= 0 ? QString::number(c.rung) : QStringLiteral("—"),
                               c.rung, true));
            row.push_back(makeItem(QString::number(c.iterations), static_cast<double>(c.iterations),
                               true));
        }
        for (QTableWidgetItem* it : row) {
            it->setData(kConfigRole, i);
            if (i == best) {
                QFont f = font();
                f.setBold(true);
                it->setFont(f);
                it->setToolTip((optuna ? tr("best complete trial") : tr("best config")) +
                               (it->toolTip().isEmpty() ? QString() : "\n" + it->toolTip()));
            }
            setItem(i, col++, it);
        }
    }
    setSortingEnabled(true);
    // The objective's column, best first, until the user sorts by another.
    if (sortColumn >= 0 && sortColumn < columnCount() && sortColumn != meanColumn)
        sortByColumn(sortColumn, order);
    else
        sortByColumn(meanColumn, Qt::AscendingOrder);
    for (int c = 0; c < columnCount(); ++c)
        horizontalHeader()->setSectionResizeMode(c, QHeaderView::Interactive);
    resizeColumnsToContents();
    meanColumn_ = meanColumn;
    meanWidth_ = columnWidth(meanColumn);
    fitColumns();
    filling_ = false;
    if (keep >= 0) selectConfig(keep);
    // The header has its height only once it has columns: the minimum (kMinRows rows under
    // it) is asked again, or the layout keeps the header-less one and shows a row less.
    updateGeometry();
}

}  // namespace ade::ui
