#pragma once
// A run's records as the claims read them: column by column (record i of column c is
// `at(i, c)`). A view borrows the columns of a live run where they are kept (the explorer's run
// store: nothing is copied, so an evaluation costs no memory and reads each column in order); a
// finished run's row-wise history (RunResult::history, a sweep's outcomes) is turned once into
// columns the view owns. The borrowed columns must outlive the view and not grow while it is
// read (the explorer builds its views for one evaluation on the thread that appends records).
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "training/Trainer.h"

namespace ade {

class HistoryView {
  public:
    HistoryView() = default;
    // The history's rows as columns the view owns; no history (nullptr) = no view. Implicit, so
    // that a ClaimRun is made from `&result.history` as before.
    HistoryView(const MetricHistory* h);  // NOLINT(google-explicit-constructor)
    // Borrowed columns: `columns[c]` points at `records` values of the column named `names[c]`.
    HistoryView(std::vector<std::string> names, std::vector<const double*> columns,
                std::size_t records);

    explicit operator bool() const { return present_; }
    bool empty() const { return records_ == 0; }
    std::size_t size() const { return records_; }
    const std::vector<std::string>& columns() const { return names_; }
    int column(const std::string& name) const;  // -1 when absent
    double at(std::size_t record, int column) const {
        return columns_[static_cast<std::size_t>(column)][record];
    }
    double last(int column) const { return at(records_ - 1, column); }

  private:
    bool present_ = false;
    std::vector<std::string> names_;
    std::vector<const double*> columns_;
    std::size_t records_ = 0;
    std::shared_ptr<const std::vector<std::vector<double>>> owned_;  // a transposed history
};

}  // namespace ade
