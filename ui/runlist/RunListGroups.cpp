// The run table's group rows: the seeds of one group (RunRecord::group) under one row that
// summarises them (final, best and floor as mean ± sd over its seeds).
#include <QHeaderView>

#include <algorithm>
#include <climits>
#include <cmath>
#include <map>

#include "runlist/RunListColumns.h"
#include "runlist/RunListWidget.h"
#include "runs/RunStore.h"
#include "runs/SeedGroups.h"
#include "experiments/ExperimentRegistry.h"

namespace ade::ui {

QTreeWidgetItem* RunListWidget::itemForGroup(const std::string& key) const {
    const QString k = QString::fromStdString(key);
    for (int i = 0; i < topLevelItemCount(); ++i)
        if (topLevelItem(i)->data(ColName, kGroupRole).toString() == k) return topLevelItem(i);
    return nullptr;
}

int RunListWidget::storeIndex(const QTreeWidgetItem* item) const {
    if (!isGroup(item)) return store_->indexOf(item->data(ColName, Qt::UserRole).toInt());
    int at = INT_MAX;
    for (int c = 0; c < item->childCount(); ++c)
        at = std::min(at, storeIndex(item->child(c)));
    return at;
}

void RunListWidget::placeRow(QTreeWidgetItem* item, const RunRecord& r) {
    const auto members = groupMembers(*store_, r);
    QTreeWidgetItem* group = itemForGroup(r.groupKey);
    updating_ = true;
    if (members.size() > 1 && !group) {
        // The group's second seed: a group row where its first seed's row was.
        group = new RunItem;
        group->setFlags((group->flags() | Qt::ItemIsUserCheckable) & ~Qt::ItemIsEditable);
        group->setData(ColName, Qt::UserRole, 0);
        group->setData(ColName, kGroupRole, QString::fromStdString(r.groupKey));
        QTreeWidgetItem* first = itemForRun(members.front()->id);
        int at = first && !first->parent() ? indexOfTopLevelItem(first) : topLevelItemCount();
        insertTopLevelItem(at, group);
        for (const RunRecord* m : members)
            if (QTreeWidgetItem* it = itemForRun(m->id); it && it != item && !it->parent())
                group->addChild(takeTopLevelItem(indexOfTopLevelItem(it)));
        setRootIsDecorated(true);
    }
    if (group && item->parent() != group) {
        if (item->parent())
            item->parent()->removeChild(item);
        else if (const int i = indexOfTopLevelItem(item); i >= 0)
            takeTopLevelItem(i);
        group->addChild(item);
    }
    updating_ = false;
    if (group) updateGroupRow(group);
}

void RunListWidget::updateGroupRow(QTreeWidgetItem* group) {
    std::vector<const RunRecord*> seeds;
    for (int c = 0; c < group->childCount(); ++c)
        if (const RunRecord* r = store_->run(group->child(c)->data(ColName, Qt::UserRole).toInt()))
            seeds.push_back(r);
    if (seeds.empty()) return;
    const RunRecord& first = *seeds.front();
    updating_ = true;
    const int n = static_cast<int>(seeds.size());
    group->setText(ColName, tr("%1 (%2 seeds)").arg(first.group).arg(n));
    group->setIcon(ColName, runSwatch(first.colorIndex));
    const int shown = static_cast<int>(
        std::count_if(seeds.begin(), seeds.end(), [](const RunRecord* r) { return r->visible; }));
    group->setCheckState(ColName, shown == n   ? Qt::Checked
                                  : shown == 0 ? Qt::Unchecked
                                               : Qt::PartiallyChecked);
    group->setText(ColExperiment, QString::fromStdString(first.config.experiment()).toUpper());
    // State: one word when the seeds agree, else how many are in each state.
    std::map<QString, int> states;
    long iteration = 0;
    for (const RunRecord* r : seeds) {
        ++states[stateText(r->state)];
        iteration = std::max(iteration, r->lastIteration());
    }
    QStringList parts;
    for (const auto& [state, count] : states)
        parts << (states.size() == 1 ? state : QStringLiteral("%1 %2").arg(state).arg(count));
    group->setText(ColState, parts.join(QStringLiteral(", ")));
    group->setText(ColIter, QString::number(iteration));
    group->setData(ColIter, kSortRole, static_cast<double>(iteration));
    // final, best and floor: mean ± sd over the seeds; the tooltip lists every seed.
    const std::string m = metric();
    std::vector<double> finals, bests, floors;
    QStringList tip = {tr("%1: mean ± sd over %2 seeds").arg(first.group).arg(n)};
    for (const RunRecord* r : seeds) {
        const MetricStats s = statsOf(*r);
        finals.push_back(s.final);
        bests.push_back(s.best);
        floors.push_back(s.floor);
        tip << tr("seed %1 (%2): final %3 · best %4 · floor %5")
                   .arg(r->config.getInt("seed"))
                   .arg(r->name)
                   .arg(s.final, 0, 'g', 5)
                   .arg(s.best, 0, 'g', 5)
                   .arg(s.floor, 0, 'g', 5);
    }
    const std::pair<int, const std::vector<double>*> cells[] = {
        {ColFinal, &finals}, {ColBest, &bests}, {ColFloor, &floors}};
    for (const auto& [col, values] : cells) {
        const SeedStats s = seedStats(*values);
        group->setText(col, meanSdText(s));
        group->setData(col, kSortRole, s.n ? s.mean : NAN);
        group->setToolTip(col, tip.join('\n'));
    }
    group->setToolTip(ColName, tip.join('\n'));
    group->setText(paramsColumn(), QString::fromStdString(experimentBrief(first.config)));
    updating_ = false;
}

}  // namespace ade::ui
