#pragma once
// "Compare configs…": the keys whose values differ between two runs' configs (plus the seed,
// always), with the parameter registry's labels, as a table that copies as text.
#include <QDialog>
#include <QString>

#include <string>
#include <vector>

#include "config/Config.h"

class QTableWidget;

namespace ade::ui {

struct RunRecord;

struct ConfigDiffRow {
    std::string key;  // registry key ("lr")
    QString label;    // the registry's label ("Step size eta")
    QString a, b;     // the values in the two configs; "—" where the key does not apply
};

// The keys (in the registry's order) whose values differ between `a` and `b`, and the seed
// whether it differs or not. A key that applies to one experiment only counts as differing.
std::vector<ConfigDiffRow> configDiff(const ade::Config& a, const ade::Config& b);
// A key's value as a person reads it ("0.5", "gd", "true"); "—" when it does not apply to the
// config's experiment, "… (not used)" when its relevance rule does not hold.
QString configValueText(const ade::Config& c, const std::string& key);

class ConfigDiffDialog : public QDialog {
    Q_OBJECT
  public:
    ConfigDiffDialog(const RunRecord& a, const RunRecord& b, QWidget* parent = nullptr);
    const std::vector<ConfigDiffRow>& rows() const { return rows_; }
    QTableWidget* table() const { return table_; }
    // Tab-separated: a header line (parameter, run names), then one line per row.
    QString text() const;
    void copyToClipboard() const;

  private:
    std::vector<ConfigDiffRow> rows_;
    QString nameA_, nameB_;
    QTableWidget* table_ = nullptr;
};

}  // namespace ade::ui
