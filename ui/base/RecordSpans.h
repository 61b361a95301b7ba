#pragma once
// Which records of a series changed: half-open spans [first, second) of record indices, sorted
// and apart. A seed group's mean changes where each seed's new records fall, not from its
// slowest seed to its end: the charts bring their caches up to date over these spans only.
#include <algorithm>
#include <cstddef>
#include <utility>
#include <vector>

namespace ade::ui {

using RecordSpans = std::vector<std::pair<std::size_t, std::size_t>>;

// Adds [from, to) to `spans`, merging it with the spans it touches or overlaps.
inline void addSpan(RecordSpans& spans, std::size_t from, std::size_t to) {
    if (to <= from) return;
    auto it = std::lower_bound(spans.begin(), spans.end(), std::make_pair(from, from));
    if (it != spans.begin() && std::prev(it)->second >= from) --it;
    if (it == spans.end() || it->first > to) {
        spans.insert(it, {from, to});
        return;
    }
    it->first = std::min(it->first, from);
    it->second = std::max(it->second, to);
    auto next = std::next(it);
    while (next != spans.end() && next->first <= it->second) {
        it->second = std::max(it->second, next->second);
        next = spans.erase(next);
    }
}

}  // namespace ade::ui
