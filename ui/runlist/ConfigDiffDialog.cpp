#include "runlist/ConfigDiffDialog.h"

#include <QApplication>
#include <QClipboard>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

#include "runs/RunStore.h"
#include "config/ParamSpec.h"
#include "output/RunOutput.h"

namespace ade::ui {

namespace {
const QString kAbsent = QStringLiteral("—");

QString jsonText(const nlohmann::json& v) {
    if (v.is_string()) return QString::fromStdString(v.get<std::string>());
    if (v.is_number_float()) return QString::fromStdString(ade::formatNumber(v.get<double>()));  // 9, not 9.0
    return QString::fromStdString(v.dump());
}
}  // namespace

QString configValueText(const ade::Config& c, const std::string& key) {
    const ade::ParamSpec* spec = ade::ParamRegistry::instance().find(key);
    if (!spec || !spec->appliesTo(c.experiment())) return kAbsent;
    const QString text = jsonText(c.get(key));
    if (!c.isRelevant(key)) return QObject::tr("%1 (not used)").arg(text);
    return text.isEmpty() ? QObject::tr("(empty)") : text;
}

std::vector<ConfigDiffRow> configDiff(const ade::Config& a, const ade::Config& b) {
    const std::vector<std::string> differing = ade::differingKeys(a, b);
    std::vector<ConfigDiffRow> rows;
    for (const ade::ParamSpec& spec : ade::ParamRegistry::instance().all()) {
        const bool seed = spec.key == "seed";
        if (!seed && std::find(differing.begin(), differing.end(), spec.key) == differing.end())
            continue;
        rows.push_back({spec.key, QString::fromStdString(spec.label),
                        configValueText(a, spec.key), configValueText(b, spec.key)});
    }
    return rows;
}

ConfigDiffDialog::ConfigDiffDialog(const RunRecord& a, const RunRecord& b, QWidget* parent)
    : QDialog(parent), rows_(configDiff(a.config, b.config)), nameA_(a.name), nameB_(b.name) {
    setObjectName(QStringLiteral("configDiff"));
    setWindowTitle(tr("Compare configs: %1 and %2").arg(nameA_, nameB_));
    auto* lay = new QVBoxLayout(this);
    const int differing = static_cast<int>(std::count_if(
        rows_.begin(), rows_.end(), [](const ConfigDiffRow& r) { return r.a != r.b; }));
    auto* summary = new QLabel(
        differing == 0 ? tr("The two configs are identical (the seed is listed for reference).")
                       : tr("%n key(s) differ; every other key has the same value in both runs "
                            "(the seed is always listed).",
                            nullptr, differing),
        this);
    summary->setWordWrap(true);
    lay->addWidget(summary);

    table_ = new QTableWidget(static_cast<int>(rows_.size()), 3, this);
    table_->setObjectName(QStringLiteral("configDiffTable"));
    table_->setHorizontalHeaderLabels({tr("Parameter"), nameA_, nameB_});
    table_->verticalHeader()->hide();
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    for (int i = 0; i < static_cast<int>(rows_.size()); ++i) {
        const ConfigDiffRow& r = rows_[static_cast<std::size_t>(i)];
        auto* label = new QTableWidgetItem(r.label);
        label->setToolTip(QString::fromStdString(r.key));
        table_->setItem(i, 0, label);
        table_->setItem(i, 1, new QTableWidgetItem(r.a));
        table_->setItem(i, 2, new QTableWidgetItem(r.b));
        if (r.a == r.b)  // the seed, when equal: shown for reference, greyed
            for (int c = 0; c < 3; ++c)
                table_->item(i, c)->setForeground(palette().color(QPalette::PlaceholderText));
    }
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setStretchLastSection(true);
    lay->addWidget(table_, 1);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    QPushButton* copy = buttons->addButton(tr("&Copy as text"), QDialogButtonBox::ActionRole);
    copy->setObjectName(QStringLiteral("copyDiff"));
    copy->setToolTip(tr("Copy the table to the clipboard, tab-separated"));
    connect(copy, &QPushButton::clicked, this, &ConfigDiffDialog::copyToClipboard);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    lay->addWidget(buttons);
    resize(520, std::min(600, 140 + 30 * static_cast<int>(rows_.size())));
}

QString ConfigDiffDialog::text() const {
    QStringList lines;
    lines << QStringList{tr("parameter"), nameA_, nameB_}.join(QLatin1Char('\t'));
    for (const ConfigDiffRow& r : rows_)
        lines << QStringList{QStringLiteral("%1 (%2)").arg(r.label, QString::fromStdString(r.key)),
                             r.a, r.b}
                     .join(QLatin1Char('\t'));
    return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

void ConfigDiffDialog::copyToClipboard() const {
    QApplication::clipboard()->setText(text());
}

}  // namespace ade::ui
