#pragma once
// Seeds as an axis of every comparison: the runs of one group (one run of the comparison, K
// seeds that differ only in their seed) taken together. The charts draw a group as the mean
// over its seeds with a min–max band, the run list and the exports give mean ± sd, min and max.
// While seeds run at different speeds, a record index counts the seeds that have reached it.
// No widgets: the charts, the run list and the exports share these.
#include <QString>

#include <cstddef>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "base/RecordSpans.h"
#include "runs/RunStore.h"

namespace ade::ui {

struct SeedGroup {
    QString label;                          // the group's name (its runs' preset run name)
    std::vector<const RunRecord*> members;  // its seeds, in the store's order
    bool grouped() const { return members.size() > 1; }
    const RunRecord& first() const { return *members.front(); }
};

// The runs as groups, in the order of each group's first run. A run without a group (or the
// only seed of its group among `runs`) is a group of one.
std::vector<SeedGroup> seedGroups(const std::vector<const RunRecord*>& runs);
// The other runs of `r`'s group in `store` and `r` itself, in the store's order.
std::vector<const RunRecord*> groupMembers(const RunStore& store, const RunRecord& r);

// Mean, sd (sample, n − 1), min and max of the finite values; n = how many there were.
struct SeedStats {
    double mean = 0, sd = 0, lo = 0, hi = 0;
    int n = 0;
};
SeedStats seedStats(const std::vector<double>& values);
// "0.123 ± 0.004" (one value: the value alone; none: "—").
QString meanSdText(const SeedStats& s);

// The band the charts and figures draw around a group's mean curve, said on the chart.
inline constexpr const char* kBandName = "min–max";
// The legend's words for a group: "none · 3 seeds" (the band is named once, by the legend).
QString groupLegendName(const SeedGroup& g);

// One group's curves, record by record: the mean over the seeds that have record i, their sd,
// min and max, per column (the columns of the group's first seed). Kept up to date
// incrementally: records every seed has reached are final, only the later ones are computed
// again.
class GroupAggregate {
  public:
    // Brings the aggregate up to `members`' data; returns the first record index whose values
    // may have changed since the last update (0 after a change of members or columns).
    std::size_t update(const std::vector<const RunRecord*>& members);
    // The records the last update changed: where each seed's new records fell (the means there
    // take in another seed; past the slowest seed's end the others' records are final).
    const RecordSpans& changed() const { return changed_; }
    // A record holding the means (its data), with the first member's identity and config and
    // the group's label as its name, so a chart draws it like a run.
    const RunRecord& mean() const { return mean_; }
    const std::vector<double>& sd(int column) const { return sd_[static_cast<std::size_t>(column)]; }
    const std::vector<double>& lo(int column) const { return lo_[static_cast<std::size_t>(column)]; }
    const std::vector<double>& hi(int column) const { return hi_[static_cast<std::size_t>(column)]; }
    const std::vector<int>& seeds() const { return count_; }  // seeds that have record i

  private:
    RunRecord mean_;
    std::vector<std::vector<double>> sd_, lo_, hi_;
    std::vector<int> count_;
    std::vector<int> memberIds_;
    std::vector<std::size_t> sizes_;  // each member's records at the last update
    std::size_t planned_ = 0;          // the members' plannedRecords, taken once they are long
    RecordSpans changed_;
};

// The group aggregates of one window, shared by its charts: each group's aggregate is brought up
// to date once per store revision (not once per chart), and each consumer (a chart) learns from
// which record on the values changed since it last asked, so that its decimation resumes there.
class AggregateCache {
  public:
    // Group `g`'s aggregate, up to date for the store's `revision`; `changedFrom` gets the first
    // record whose values may have changed since `consumer` last asked (0 the first time), and
    // `changed` (when given) the spans of those records.
    const GroupAggregate& update(const SeedGroup& g, quint64 revision, const void* consumer,
                                 std::size_t& changedFrom, RecordSpans* changed = nullptr);
    // Brings group `g`'s aggregate up to the store's `revision` without a consumer: its
    // consumers learn the changed spans when they next ask (ChartArea::advanceAggregates, as
    // records arrive, so that a frame only draws).
    const GroupAggregate& advance(const SeedGroup& g, quint64 revision);
    const GroupAggregate* find(int firstId) const;  // by the id of the group's first seed
    // Drops the groups neither in `live` nor brought up to date for `revision` (another chart
    // draws those).
    void prune(const std::set<int>& live, quint64 revision);
    void forget(const void* consumer);  // a chart that goes
    void clear() { entries_.clear(); }

  private:
    struct Entry {
        GroupAggregate aggregate;
        quint64 revision = ~0ull;
        std::map<const void*, RecordSpans> pending;  // per consumer: records changed since
    };
    Entry& advanced(const SeedGroup& g, quint64 revision);  // advance's entry
    std::map<int, Entry> entries_;
};

}  // namespace ade::ui
