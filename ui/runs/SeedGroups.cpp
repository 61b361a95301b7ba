#include "runs/SeedGroups.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>
#include <map>

namespace ade::ui {

std::vector<SeedGroup> seedGroups(const std::vector<const RunRecord*>& runs) {
    std::vector<SeedGroup> out;
    std::map<std::string, std::size_t> index;  // group key -> place in out
    for (const RunRecord* r : runs) {
        const auto [it, added] = index.emplace(r->groupKey, out.size());
        if (added) out.push_back({r->group.isEmpty() ? r->name : r->group, {}});
        out[it->second].members.push_back(r);
    }
    for (SeedGroup& g : out)  // a lone seed reads as the run it is
        if (!g.grouped()) g.label = g.first().name;
    return out;
}

std::vector<const RunRecord*> groupMembers(const RunStore& store, const RunRecord& r) {
    std::vector<const RunRecord*> out;
    for (const auto& o : store.runs())
        if (o->groupKey == r.groupKey) out.push_back(o.get());
    return out;
}

SeedStats seedStats(const std::vector<double>& values) {
    SeedStats s;
    double sum = 0;
    for (double v : values) {
        if (!std::isfinite(v)) continue;
        s.lo = s.n ? std::min(s.lo, v) : v;
        s.hi = s.n ? std::max(s.hi, v) : v;
        sum += v;
        ++s.n;
    }
    if (s.n == 0) {
        s.mean = s.sd = s.lo = s.hi = NAN;
        return s;
    }
    s.mean = sum / s.n;
    double ss = 0;
    for (double v : values)
        if (std::isfinite(v)) ss += (v - s.mean) * (v - s.mean);
    s.sd = s.n > 1 ? std::sqrt(ss / (s.n - 1)) : 0.0;
    return s;
}

QString meanSdText(const SeedStats& s) {
    if (s.n == 0) return QStringLiteral("—");
    if (s.n == 1) return QString::number(s.mean, 'g', 5);
    return QStringLiteral("%1 ± %2").arg(QString::number(s.mean, 'g', 3),
                                         QString::number(s.sd, 'g', 2));
}

QString groupLegendName(const SeedGroup& g) {
    if (!g.grouped()) return g.label;
    // Short: twelve groups must fit a legend at 1024x768; what the line and the band are is
    // said once, by the legend's note (ChartArea) and the entry's tooltip.
    return QCoreApplication::translate("SeedGroups", "%1 · %2 seeds").arg(g.label).arg(g.members.size());
}

std::size_t GroupAggregate::update(const std::vector<const RunRecord*>& members) {
    std::vector<int> ids;
    for (const RunRecord* r : members)
        ids.push_back(r->id);
    const RunRecord& first = *members.front();
    bool fresh = ids != memberIds_ || mean_.columns != first.columns ||
                 sizes_.size() != members.size();
    for (std::size_t m = 0; m < members.size(); ++m) {
        const RunRecord* r = members[m];
        fresh = fresh || r->data.size() != r->columns.size();  // a seed whose columns differ
        fresh = fresh || (m < sizes_.size() && r->size() < sizes_[m]);  // a seed started again
    }
    if (fresh) {
        memberIds_ = ids;
        mean_.columns = first.columns;
        const std::size_t nc = first.columns.size();
        mean_.data.assign(nc, {});
        sd_.assign(nc, {});
        lo_.assign(nc, {});
        hi_.assign(nc, {});
        count_.clear();
        sizes_.assign(members.size(), 0);
        mean_.config = first.config;  // a copy of every key: not at every update
        planned_ = 0;
        for (const RunRecord* r : members)
            planned_ = std::max(planned_, plannedRecords(r->config));
    }
    mean_.id = -first.id;
    mean_.name = first.group.isEmpty() ? first.name : first.group;
    mean_.colorIndex = first.colorIndex;
    mean_.group = first.group;
    mean_.groupKey = first.groupKey;
    mean_.state = first.state;
    mean_.visible = true;

    // Members only grow: record i changed where a member's new records [had, has) cover it.
    // Seeds run at different rates, so the aggregate's tail (where the faster seeds are alone)
    // is long; only the records a seed just reached are computed again, not the whole tail.
    std::size_t longest = 0;
    std::vector<std::pair<std::size_t, std::size_t>> changed;  // [from, to), merged below
    for (std::size_t m = 0; m < members.size(); ++m) {
        longest = std::max(longest, members[m]->size());
        if (members[m]->size() > sizes_[m]) changed.emplace_back(sizes_[m], members[m]->size());
        sizes_[m] = members[m]->size();
    }
    std::sort(changed.begin(), changed.end());
    std::vector<std::pair<std::size_t, std::size_t>> spans;
    for (const auto& c : changed) {
        if (!spans.empty() && c.first <= spans.back().second)
            spans.back().second = std::max(spans.back().second, c.second);
        else
            spans.push_back(c);
    }
    // Column c of each member (by name: a seed of another version may order them otherwise).
    std::vector<std::vector<const std::vector<double>*>> cols(mean_.columns.size());
    for (std::size_t c = 0; c < mean_.columns.size(); ++c)
        for (const RunRecord* r : members)
            if (const int k = r->column(mean_.columns[c]); k >= 0)
                cols[c].push_back(&r->data[static_cast<std::size_t>(k)]);
    // The whole run's room once it is long (as RunStore's columns): these 4 x columns vectors
    // would otherwise all double, and copy, in the same frame.
    reserveRecords(count_, longest, planned_);
    count_.resize(longest);
    for (const auto& span : spans)
        for (std::size_t i = span.first; i < span.second; ++i) {
            int n = 0;
            for (const RunRecord* r : members)
                n += i < r->size() ? 1 : 0;
            count_[i] = n;
        }
    std::vector<double> values;
    for (std::size_t c = 0; c < mean_.columns.size(); ++c) {
        for (auto* v : {&mean_.data[c], &sd_[c], &lo_[c], &hi_[c]}) {
            reserveRecords(*v, longest, planned_);
            v->resize(longest);
        }
        for (const auto& span : spans)
            for (std::size_t i = span.first; i < span.second; ++i) {
                values.clear();
                for (const std::vector<double>* col : cols[c])
                    if (i < col->size()) values.push_back((*col)[i]);
                const SeedStats s = seedStats(values);
                mean_.data[c][i] = s.mean;
                sd_[c][i] = s.sd;
                lo_[c][i] = s.lo;
                hi_[c][i] = s.hi;
            }
    }
    changed_ = spans;  // sorted and merged above
    return spans.empty() ? longest : spans.front().first;
}

const GroupAggregate& AggregateCache::update(const SeedGroup& g, quint64 revision,
                                             const void* consumer, std::size_t& changedFrom,
                                             RecordSpans* changed) {
    Entry& e = advanced(g, revision);
    RecordSpans spans;
    const auto it = e.pending.find(consumer);
    if (it == e.pending.end()) {
        spans = {{0, SIZE_MAX}};  // a new consumer: everything
        e.pending.emplace(consumer, RecordSpans{});
    } else {
        spans.swap(it->second);
    }
    changedFrom = spans.empty() ? SIZE_MAX : spans.front().first;
    if (changed) *changed = std::move(spans);
    return e.aggregate;
}

const GroupAggregate& AggregateCache::advance(const SeedGroup& g, quint64 revision) {
    return advanced(g, revision).aggregate;
}

AggregateCache::Entry& AggregateCache::advanced(const SeedGroup& g, quint64 revision) {
    Entry& e = entries_[g.first().id];
    if (e.revision != revision) {
        e.aggregate.update(g.members);
        e.revision = revision;
        for (auto& [c, pending] : e.pending)
            for (const auto& [a, b] : e.aggregate.changed())
                addSpan(pending, a, b);
    }
    return e;
}

const GroupAggregate* AggregateCache::find(int firstId) const {
    const auto it = entries_.find(firstId);
    return it == entries_.end() ? nullptr : &it->second.aggregate;
}

void AggregateCache::prune(const std::set<int>& live, quint64 revision) {
    for (auto it = entries_.begin(); it != entries_.end();)
        it = live.count(it->first) || it->second.revision == revision ? std::next(it)
                                                                      : entries_.erase(it);
}

void AggregateCache::forget(const void* consumer) {
    for (auto& [id, e] : entries_)
        e.pending.erase(consumer);
}

}  // namespace ade::ui

