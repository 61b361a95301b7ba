#include "claims/HistoryView.h"

namespace ade {

HistoryView::HistoryView(const MetricHistory* h) {
    if (!h) return;
    present_ = true;
    names_ = h->columns;
    records_ = h->rows.size();
    auto cols = std::make_shared<std::vector<std::vector<double>>>(names_.size());
    for (std::size_t c = 0; c < names_.size(); ++c) {
        (*cols)[c].reserve(records_);
        for (const auto& row : h->rows) (*cols)[c].push_back(c < row.size() ? row[c] : 0.0);
    }
    for (const auto& col : *cols) columns_.push_back(col.data());
    owned_ = std::move(cols);
}

HistoryView::HistoryView(std::vector<std::string> names, std::vector<const double*> columns,
                         std::size_t records)
    : present_(true), names_(std::move(names)), columns_(std::move(columns)), records_(records) {}

int HistoryView::column(const std::string& name) const {
    for (std::size_t i = 0; i < names_.size(); ++i)
        if (names_[i] == name) return static_cast<int>(i);
    return -1;
}

}  // namespace ade
