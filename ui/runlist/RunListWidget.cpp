#include "runlist/RunListWidget.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QVBoxLayout>

#include <algorithm>
#include <climits>
#include <cmath>
#include <map>
#include <set>
#include <utility>

#include "runlist/ConfigDiffDialog.h"
#include "runs/RunStore.h"
#include "runlist/RunListColumns.h"
#include "runs/TimeTravelBar.h"
#include "runs/SeedGroups.h"
#include "base/Palette.h"
#include "config/ParamSpec.h"
#include "experiments/ExperimentRegistry.h"

namespace ade::ui {

namespace {
// More columns than this would push the summary off any screen; the rest are in the summary.
constexpr std::size_t kMaxKeyColumns = 8;

void setNumber(QTreeWidgetItem* item, int col, double v) {
    item->setText(col, std::isnan(v) ? QStringLiteral("—") : QString::number(v, 'g', 5));
    item->setData(col, kSortRole, v);
}
}  // namespace

bool RunListWidget::isGroup(const QTreeWidgetItem* item) {
    return isGroupRow(item, ColName);
}

RunListWidget::RunListWidget(RunStore* store, QWidget* parent)
    : QTreeWidget(parent), store_(store) {
    setObjectName(QStringLiteral("runList"));
    setColumnCount(NFixed + 1);
    setRootIsDecorated(false);
    setSelectionMode(QAbstractItemView::ExtendedSelection);
    setEditTriggers(QAbstractItemView::EditKeyPressed | QAbstractItemView::DoubleClicked);
    setContextMenuPolicy(Qt::CustomContextMenu);
    setUniformRowHeights(true);
    header()->setStretchLastSection(true);
    header()->setSectionResizeMode(QHeaderView::Interactive);
    setColumnWidth(ColName, 180);
    fitTimer_.setSingleShot(true);
    fitTimer_.setInterval(0);
    connect(&fitTimer_, &QTimer::timeout, this, &RunListWidget::fitColumns);
    for (int c : {ColFinal, ColBest, ColFloor})
        setColumnWidth(c, 100);  // a group's "0.322 ± 0.016"
    // Unsorted at first (the runs' order); a header click sorts, a third click unsorts.
    header()->setSortIndicator(-1, Qt::AscendingOrder);
    header()->setSortIndicatorClearable(true);
    setSortingEnabled(true);
    connect(header(), &QHeaderView::sortIndicatorChanged, this, [this](int section) {
        if (section < 0) restoreStoreOrder();
    });

    metric_ = new QComboBox(this);
    metric_->setObjectName(QStringLiteral("runMetric"));
    metric_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    metric_->setMinimumContentsLength(18);  // a label is never cut before the list is filled
    metric_->setToolTip(tr("The metric whose final value, best (lowest) value and floor (mean "
                           "of the last 10 % of records) the table shows"));
    metric_->hide();  // shown in panel()
    connect(metric_, &QComboBox::currentIndexChanged, this, [this] {
        for (const auto& r : store_->runs())
            if (QTreeWidgetItem* item = itemForRun(r->id)) updateMetricCells(item, *r);
        for (int i = 0; i < topLevelItemCount(); ++i)
            if (isGroup(topLevelItem(i))) updateGroupRow(topLevelItem(i));
    });
    syncKeyColumns();

    connect(store, &RunStore::runAdded, this, &RunListWidget::addRow);
    connect(store, &RunStore::runChanged, this, [this](int id) {
        syncMetrics();
        syncKeyColumns();  // a run's config may have changed
        updateRow(id);
    });
    progressTimer_.setSingleShot(true);
    progressTimer_.setInterval(200);
    connect(&progressTimer_, &QTimer::timeout, this, [this] {
        syncMetrics();  // a run's first records bring its columns
        const QSet<int> ids = std::exchange(progressPending_, {});
        for (int id : ids)
            updateProgress(id);
        scheduleFit();
    });
    connect(store, &RunStore::snapshotsAppended, this, [this](int id) {
        progressPending_.insert(id);
        if (!progressTimer_.isActive()) progressTimer_.start();
    });
    connect(store, &RunStore::dataAppended, this, [this](int id) {
        progressPending_.insert(id);
        if (!progressTimer_.isActive()) progressTimer_.start();
    });
    connect(store, &RunStore::runRemoved, this, &RunListWidget::removeRow);
    connect(this, &QTreeWidget::itemChanged, this, [this](QTreeWidgetItem* item, int column) {
        if (updating_ || column != ColName) return;
        if (isGroup(item)) {  // the group's check box: all its seeds
            if (item->checkState(ColName) == Qt::PartiallyChecked) return;
            const bool on = item->checkState(ColName) == Qt::Checked;
            for (int c = 0; c < item->childCount(); ++c)
                store_->setVisible(item->child(c)->data(ColName, Qt::UserRole).toInt(), on);
            return;
        }
        const int id = item->data(ColName, Qt::UserRole).toInt();
        store_->setVisible(id, item->checkState(ColName) == Qt::Checked);
        store_->rename(id, item->text(ColName));
        updateRow(id);  // the store may have refused an empty name
    });
    connect(this, &QWidget::customContextMenuRequested, this, &RunListWidget::showMenu);
    for (const auto& r : store->runs())
        addRow(r->id);
}

QWidget* RunListWidget::panel() {
    if (panel_) return panel_;
    panel_ = new QWidget;
    panel_->setObjectName(QStringLiteral("runPanel"));
    auto* lay = new QVBoxLayout(panel_);
    lay->setContentsMargins(0, 0, 0, 0);
    lay->setSpacing(2);
    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(4, 2, 4, 0);
    auto* label = new QLabel(tr("&Metric:"), panel_);
    label->setBuddy(metric_);
    bar->addWidget(label);
    bar->addWidget(metric_);
    auto* hint = new QLabel(tr("final · best (lowest) · floor (mean of the last 10 % of "
                               "records) — click a header to sort"),
                            panel_);
    hint->setEnabled(false);  // secondary text
    bar->addWidget(hint, 1);
    lay->addLayout(bar);
    lay->addWidget(this, 1);
    metric_->show();
    return panel_;
}

std::string RunListWidget::metric() const {
    return metric_->currentData().toString().toStdString();
}

void RunListWidget::setMetric(const std::string& column) {
    const int i = metric_->findData(QString::fromStdString(column));
    if (i >= 0) metric_->setCurrentIndex(i);
}

int RunListWidget::keyColumn(const std::string& key) const {
    const auto it = std::find(keys_.begin(), keys_.end(), key);
    return it == keys_.end() ? -1 : NFixed + static_cast<int>(it - keys_.begin());
}

QList<int> RunListWidget::selectedRunIds() const {
    QList<int> ids;
    auto add = [&](const QTreeWidgetItem* it) {
        const int id = it->data(ColName, Qt::UserRole).toInt();
        if (id && !ids.contains(id)) ids << id;
    };
    for (int i = 0; i < topLevelItemCount(); ++i) {  // the table's order
        const QTreeWidgetItem* top = topLevelItem(i);
        if (top->isSelected()) add(top);
        for (int c = 0; c < top->childCount(); ++c)
            if (top->isSelected() || top->child(c)->isSelected()) add(top->child(c));
    }
    return ids;
}

QTreeWidgetItem* RunListWidget::itemForRun(int id) const {
    for (int i = 0; i < topLevelItemCount(); ++i) {
        QTreeWidgetItem* top = topLevelItem(i);
        if (top->data(ColName, Qt::UserRole).toInt() == id && !isGroup(top)) return top;
        for (int c = 0; c < top->childCount(); ++c)
            if (top->child(c)->data(ColName, Qt::UserRole).toInt() == id) return top->child(c);
    }
    return nullptr;
}

void RunListWidget::addRow(int id) {
    auto* item = new RunItem;
    item->setFlags(item->flags() | Qt::ItemIsEditable | Qt::ItemIsUserCheckable);
    item->setData(ColName, Qt::UserRole, id);
    updating_ = true;
    // In the store's order (a reset run keeps its place), unless the table is sorted.
    const int at = store_->indexOf(id);
    insertTopLevelItem(at < 0 ? topLevelItemCount() : std::min(at, topLevelItemCount()), item);
    updating_ = false;
    syncMetrics();
    syncKeyColumns();  // every row again when the columns change
    if (const RunRecord* r = store_->run(id)) placeRow(item, *r);
    updateRow(id);
    if (sortColumn() >= 0) sortItems(sortColumn(), header()->sortIndicatorOrder());
    scrollToItem(item);  // a new run is never left below the fold
    scheduleFit();
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
        item->setIcon(ColName, runSwatch(r->colorIndex));
        item->setData(ColName, Qt::UserRole + 1, rgb);
    }
    item->setCheckState(ColName, r->visible ? Qt::Checked : Qt::Unchecked);
    const std::string exp = r->config.experiment();
    item->setText(ColExperiment, QString::fromStdString(exp).toUpper());
    if (const ade::ExperimentInfo* info = ade::findExperiment(exp))
        item->setToolTip(ColExperiment, QString::fromStdString(info->title));
    // A completed run under a stopping rule says which way it ended (an Optuna trial its
    // pruner stopped: where).
    item->setText(ColState,
                  r->state != RunState::Completed         ? stateText(r->state)
                  : r->stop == QLatin1String("converged") ? tr("converged")
                  : r->stop == QLatin1String("cap")       ? tr("cap reached")
                  : r->stop == QLatin1String("pruned")
                      ? tr("pruned at iteration %1").arg(r->lastIteration())
                      : stateText(r->state));
    item->setToolTip(ColState, r->message);
    for (std::size_t k = 0; k < keys_.size(); ++k) {
        const int col = NFixed + static_cast<int>(k);
        item->setText(col, configValueText(r->config, keys_[k]));
        const ade::ParamSpec* spec = ade::ParamRegistry::instance().find(keys_[k]);
        const bool number = spec && spec->appliesTo(exp) && r->config.get(keys_[k]).is_number();
        item->setData(col, kSortRole, number ? QVariant(r->config.get(keys_[k]).get<double>())
                                            : QVariant());
    }
    item->setText(paramsColumn(), QString::fromStdString(experimentBrief(r->config)));
    item->setToolTip(paramsColumn(), item->text(paramsColumn()));
    updating_ = false;
    updateProgress(id);
    scheduleFit();
}

void RunListWidget::updateProgress(int id) {
    const RunRecord* r = store_->run(id);
    QTreeWidgetItem* item = itemForRun(id);
    if (!r || !item) return;
    updating_ = true;
    item->setText(ColIter, QString::number(r->lastIteration()));
    item->setData(ColIter, kSortRole, static_cast<double>(r->lastIteration()));
    item->setToolTip(ColIter, snapshotMemoryText(*r));
    updating_ = false;
    updateMetricCells(item, *r);
    if (isGroup(item->parent())) updateGroupRow(item->parent());
}

void RunListWidget::updateMetricCells(QTreeWidgetItem* item, const RunRecord& r) {
    const MetricStats s = statsOf(r);
    updating_ = true;
    setNumber(item, ColFinal, s.final);
    setNumber(item, ColBest, s.best);
    setNumber(item, ColFloor, s.floor);
    updating_ = false;
}

MetricStats RunListWidget::statsOf(const RunRecord& r) {
    const std::string m = metric();
    const int c = r.column(m);
    if (c < 0) return MetricStats{NAN, NAN, NAN};
    return metricStats(r.data[static_cast<std::size_t>(c)], best_[{r.id, m}]);
}

void RunListWidget::syncMetrics() {
    const auto items = runMetrics(*store_);
    bool same = static_cast<int>(items.size()) == metric_->count();
    for (int i = 0; same && i < metric_->count(); ++i)
        same = metric_->itemData(i).toString().toStdString() == items[static_cast<std::size_t>(i)].first;
    if (same) return;
    // The choice stays while the newest run with records has that column; otherwise (the first
    // run, or runs of another experiment came: A's excess risk means nothing for B's runs) the
    // newest run's experiment's headline metric.
    std::string keep = metric();
    const RunRecord* newest = nullptr;
    for (auto it = store_->runs().rbegin(); !newest && it != store_->runs().rend(); ++it)
        if (!(*it)->columns.empty()) newest = it->get();
    if (newest && (keep.empty() || std::find(newest->columns.begin(), newest->columns.end(),
                                             keep) == newest->columns.end()))
        if (const auto* info = ade::findExperiment(newest->config.experiment()))
            keep = info->headlineMetric;
    const QSignalBlocker block(metric_);
    metric_->clear();
    for (const auto& [column, label] : items)
        metric_->addItem(label, QString::fromStdString(column));
    const int i = metric_->findData(QString::fromStdString(keep));
    metric_->setCurrentIndex(i >= 0 ? i : 0);
    metric_->setEnabled(metric_->count() > 0);
    for (const auto& r : store_->runs())
        if (QTreeWidgetItem* item = itemForRun(r->id)) updateMetricCells(item, *r);
}

void RunListWidget::syncKeyColumns() {
    const ade::ParamRegistry& registry = ade::ParamRegistry::instance();
    const std::vector<std::string> keys = ade::ui::differingKeys(*store_, kMaxKeyColumns);
    // QTreeWidget starts with the labels "1", "2", …: label the columns at the first call too.
    if (keys != keys_ || headerItem()->text(ColName) != tr("Run")) {
        const std::string sortedKey =
            sortColumn() >= NFixed && sortColumn() < paramsColumn() ? keys_[sortColumn() - NFixed] : "";
        const bool sortedByParams = sortColumn() == paramsColumn();
        keys_ = keys;
        QStringList labels = {tr("Run"), tr("Experiment"), tr("State"), tr("Iteration"),
                              tr("final"), tr("best"), tr("floor")};
        for (const std::string& k : keys_)
            labels << QString::fromStdString(registry.find(k)->label);
        labels << tr("Key parameters");
        setColumnCount(static_cast<int>(labels.size()));
        setHeaderLabels(labels);
        headerItem()->setToolTip(ColFinal, tr("The chosen metric's last recorded value"));
        headerItem()->setToolTip(ColBest, tr("The chosen metric's lowest finite value"));
        headerItem()->setToolTip(ColFloor,
                                 tr("The mean of the chosen metric over the last 10 % of records"));
        for (std::size_t k = 0; k < keys_.size(); ++k) {
            const ade::ParamSpec* spec = registry.find(keys_[k]);
            headerItem()->setToolTip(NFixed + static_cast<int>(k),
                                     QStringLiteral("%1: %2").arg(QString::fromStdString(spec->key),
                                                                  QString::fromStdString(spec->help)));
            header()->setSectionResizeMode(NFixed + static_cast<int>(k), QHeaderView::Interactive);
        }
        scheduleFit(true);
        header()->setSectionResizeMode(paramsColumn(), QHeaderView::Interactive);
        for (const auto& r : store_->runs())
            updateRow(r->id);
        // The sorted column follows its key; a key column that went away unsorts the table.
        if (!sortedKey.empty() || sortedByParams) {
            const int col = sortedByParams ? paramsColumn() : keyColumn(sortedKey);
            if (col >= 0)
                sortItems(col, header()->sortIndicatorOrder());
            else
                header()->setSortIndicator(-1, Qt::AscendingOrder);
        }
    }
}

void RunListWidget::restoreStoreOrder() {
    const QList<int> selected = selectedRunIds();
    const int current = currentItem() ? currentItem()->data(ColName, Qt::UserRole).toInt() : 0;
    std::vector<QTreeWidgetItem*> items;
    while (topLevelItemCount() > 0)
        items.push_back(takeTopLevelItem(0));
    std::stable_sort(items.begin(), items.end(), [this](QTreeWidgetItem* a, QTreeWidgetItem* b) {
        return storeIndex(a) < storeIndex(b);
    });
    for (QTreeWidgetItem* item : items)
        addTopLevelItem(item);
    for (QTreeWidgetItem* item : items) {
        const int id = item->data(ColName, Qt::UserRole).toInt();
        if (id == current) setCurrentItem(item, 0, QItemSelectionModel::NoUpdate);
        item->setSelected(selected.contains(id));
    }
}

void RunListWidget::removeRow(int id) {
    for (auto it = best_.begin(); it != best_.end();)
        it = it->first.first == id ? best_.erase(it) : std::next(it);
    QTreeWidgetItem* item = itemForRun(id);
    QTreeWidgetItem* group = item ? item->parent() : nullptr;
    delete item;
    if (group && group->childCount() <= 1) {  // one seed left: a run row of its own again
        updating_ = true;
        const int at = indexOfTopLevelItem(group);
        if (group->childCount() == 1) insertTopLevelItem(at, group->takeChild(0));
        delete group;
        updating_ = false;
    } else if (group) {
        updateGroupRow(group);
    }
    syncMetrics();
    syncKeyColumns();
    scheduleFit(true);
}

void RunListWidget::scheduleFit(bool exact) {
    fitExact_ = fitExact_ || exact;
    if (!fitTimer_.isActive()) fitTimer_.start();
}

void RunListWidget::fitColumns() {
    const bool exact = std::exchange(fitExact_, false);
    std::vector<int> cols = {ColExperiment, ColState, ColIter};
    for (std::size_t k = 0; k < keys_.size(); ++k) cols.push_back(NFixed + static_cast<int>(k));
    for (int c : cols) {
        const int want = std::max(sizeHintForColumn(c), header()->sectionSizeHint(c));
        if (want != columnWidth(c) && (exact || want > columnWidth(c))) setColumnWidth(c, want);
    }
}

ConfigDiffDialog* RunListWidget::compareSelected() {
    const QList<int> ids = selectedRunIds();
    const RunRecord* a = ids.size() == 2 ? store_->run(ids[0]) : nullptr;
    const RunRecord* b = ids.size() == 2 ? store_->run(ids[1]) : nullptr;
    if (!a || !b) {
        QMessageBox::information(this, tr("Compare configs"),
                                 tr("Select two runs in the run list (Ctrl+click) to compare "
                                    "their configs."));
        return nullptr;
    }
    auto* dialog = new ConfigDiffDialog(*a, *b, window());
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->show();
    return dialog;
}

void RunListWidget::showMenu(const QPoint& pos) {
    QTreeWidgetItem* item = itemAt(pos);
    if (!item) return;
    if (isGroup(item)) {  // a group: show, hide or delete all its seeds
        QList<int> seeds;
        for (int c = 0; c < item->childCount(); ++c)
            seeds << item->child(c)->data(ColName, Qt::UserRole).toInt();
        QMenu menu(this);
        const bool shown = item->checkState(ColName) == Qt::Checked;
        menu.addAction(shown ? tr("Hide all seeds") : tr("Show all seeds"), this, [this, seeds, shown] {
            for (int s : seeds)
                store_->setVisible(s, !shown);
        });
        menu.addSeparator();
        menu.addAction(tr("Delete all seeds"), this, [this, seeds] {
            for (int s : seeds)
                emit deleteRequested(s);
        });
        menu.exec(viewport()->mapToGlobal(pos));
        return;
    }
    const int id = item->data(ColName, Qt::UserRole).toInt();
    const RunRecord* r = store_->run(id);
    if (!r) return;
    QMenu menu(this);
    menu.addAction(tr("Rename"), this, [this, item] { editItem(item, ColName); });
    menu.addAction(r->visible ? tr("Hide") : tr("Show"), this,
                   [this, id, r] { store_->setVisible(id, !r->visible); });
    menu.addAction(tr("Edit and rerun"), this, [this, id] { emit editRequested(id); });
    menu.addAction(tr("Export metrics CSV…"), this, [this, id] { emit exportRequested(id); });
    QAction* compare = menu.addAction(tr("Compare configs…"), this, [this] { compareSelected(); });
    compare->setEnabled(selectedRunIds().size() == 2 && item->isSelected());
    compare->setToolTip(tr("Select two runs to compare their configs"));
    menu.setToolTipsVisible(!compare->isEnabled());
    menu.addSeparator();
    menu.addAction(tr("Delete"), this, [this, id] { emit deleteRequested(id); });
    menu.exec(viewport()->mapToGlobal(pos));
}

}  // namespace ade::ui
