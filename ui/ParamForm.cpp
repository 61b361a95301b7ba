#include "ParamForm.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCompleter>
#include <QEvent>
#include <QFormLayout>
#include <QGroupBox>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include <QVBoxLayout>

#include <climits>
#include <cmath>

#include "config/ParamSpec.h"
#include "experiments/ExperimentRegistry.h"
#include "output/RunOutput.h"

namespace ade::ui {

namespace {

const char* kGroupOrder[] = {"run", "data", "model", "init", "optimizer", "regularizer"};

QString groupTitle(const std::string& g) {
    if (g == "run") return QObject::tr("Run");
    if (g == "data") return QObject::tr("Data");
    if (g == "model") return QObject::tr("Model");
    if (g == "init") return QObject::tr("Initialisation");
    if (g == "optimizer") return QObject::tr("Optimiser");
    if (g == "regularizer") return QObject::tr("Regulariser");
    QString t = QString::fromStdString(g);
    if (!t.isEmpty()) t[0] = t[0].toUpper();
    return t;
}

QString valueText(const nlohmann::json& v) {
    if (v.is_string()) return QString::fromStdString(v.get<std::string>());
    if (v.is_number_float()) return QString::fromStdString(ade::formatNumber(v.get<double>()));
    return QString::fromStdString(v.dump());
}

// Up/Down on a real-valued field: double or halve (log-scale knobs), so the keyboard can sweep
// a step size over decades.
class LogStepFilter : public QObject {
  public:
    using QObject::QObject;
    bool eventFilter(QObject* o, QEvent* e) override {
        if (e->type() != QEvent::KeyPress) return false;
        auto* k = static_cast<QKeyEvent*>(e);
        if (k->key() != Qt::Key_Up && k->key() != Qt::Key_Down) return false;
        auto* edit = static_cast<QLineEdit*>(o);
        bool ok = false;
        const double v = edit->text().toDouble(&ok);
        if (!ok || v <= 0) return false;
        edit->setText(
            QString::fromStdString(ade::formatNumber(k->key() == Qt::Key_Up ? v * 2.0 : v / 2.0)));
        emit edit->textEdited(edit->text());
        return true;
    }
};

}  // namespace

ParamForm::ParamForm(QWidget* parent) : QWidget(parent) {
    layout_ = new QVBoxLayout(this);
    layout_->setContentsMargins(4, 4, 4, 4);
    crossErrors_ = new QLabel(this);
    crossErrors_->setObjectName(QStringLiteral("crossErrors"));
    crossErrors_->setWordWrap(true);
    crossErrors_->setStyleSheet(QStringLiteral("color: #b3261e;"));
    rebuild();
}

QStringList ParamForm::errors() const {
    QStringList out;
    for (const auto& [key, f] : fields_)
        if (!f.message.isEmpty()) out << f.message;
    for (const auto& e : validateConfig(config_))
        out << QString::fromStdString(e.message);
    return out;
}

QWidget* ParamForm::editor(const QString& key) const {
    const auto it = fields_.find(key.toStdString());
    return it == fields_.end() ? nullptr : it->second.editor;
}

void ParamForm::setSuggestions(const QString& key, const QStringList& values) {
    auto* edit = qobject_cast<QLineEdit*>(editor(key));
    if (!edit) return;
    auto* completer = new QCompleter(values, edit);
    completer->setCaseSensitivity(Qt::CaseInsensitive);
    completer->setCompletionMode(QCompleter::UnfilteredPopupCompletion);
    if (edit->completer()) edit->completer()->deleteLater();
    edit->setCompleter(completer);
}

void ParamForm::setConfig(const ade::Config& config) {
    const bool newExperiment = config.experiment() != config_.experiment();
    config_ = config;
    if (newExperiment) {
        rebuild();
        return;
    }
    loading_ = true;
    for (auto& [key, f] : fields_) {
        f.message.clear();
        loadEditor(f);
    }
    loading_ = false;
    refreshValidity();
    emit configChanged();
}

void ParamForm::rebuild() {
    if (body_) {
        crossErrors_->setParent(this);  // survives the old body
        layout_->removeWidget(body_);
        body_->deleteLater();
    }
    fields_.clear();
    body_ = new QWidget(this);
    auto* bodyLayout = new QVBoxLayout(body_);
    bodyLayout->setContentsMargins(0, 0, 0, 0);
    const std::string exp = config_.experiment();
    const auto& all = ade::ParamRegistry::instance().all();
    std::vector<std::string> groups(std::begin(kGroupOrder), std::end(kGroupOrder));
    for (const auto& s : all)
        if (std::find(groups.begin(), groups.end(), s.group) == groups.end())
            groups.push_back(s.group);
    loading_ = true;
    for (const auto& g : groups) {
        QGroupBox* box = nullptr;
        QFormLayout* form = nullptr;
        for (const auto& s : all) {
            if (s.group != g || !s.appliesTo(exp)) continue;
            if (!box) {
                box = new QGroupBox(groupTitle(g), body_);
                form = new QFormLayout(box);
                form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
                form->setRowWrapPolicy(QFormLayout::DontWrapRows);
                bodyLayout->addWidget(box);
            }
            Field& f = fields_[s.key];
            f.spec = &s;
            QWidget* ed = makeEditor(f);
            const QString tip = QStringLiteral("<b>%1</b> (<code>%2</code>)<br>%3<br><i>%4</i>")
                                    .arg(QString::fromStdString(s.label).toHtmlEscaped(),
                                         QString::fromStdString(s.key),
                                         QString::fromStdString(s.help).toHtmlEscaped(),
                                         QString::fromStdString(s.allowedText()));
            ed->setToolTip(tip);
            auto* label = new QLabel(QString::fromStdString(s.label), box);
            label->setToolTip(tip);
            label->setBuddy(ed);
            f.error = new QLabel(box);
            f.error->setObjectName(QString::fromStdString(s.key) + QStringLiteral(".error"));
            f.error->setWordWrap(true);
            f.error->setStyleSheet(QStringLiteral("color: #b3261e; font-size: small;"));
            f.error->hide();
            auto* cell = new QWidget(box);
            auto* cellLayout = new QVBoxLayout(cell);
            cellLayout->setContentsMargins(0, 0, 0, 0);
            cellLayout->setSpacing(1);
            cellLayout->addWidget(ed);
            cellLayout->addWidget(f.error);
            form->addRow(label, cell);
            loadEditor(f);
        }
    }
    bodyLayout->addWidget(crossErrors_);
    bodyLayout->addStretch(1);
    layout_->addWidget(body_);
    loading_ = false;
    refreshValidity();
    emit configChanged();
}

QWidget* ParamForm::makeEditor(Field& f) {
    const ade::ParamSpec& s = *f.spec;
    const std::string key = s.key;
    QWidget* ed = nullptr;
    switch (s.type) {
        case ade::ParamType::Bool: {
            auto* cb = new QCheckBox(body_);
            connect(cb, &QCheckBox::toggled, this,
                    [this, key](bool on) { commit(key, on ? "true" : "false"); });
            ed = cb;
            break;
        }
        case ade::ParamType::Choice: {
            auto* combo = new QComboBox(body_);
            // Long titles must not widen the panel: the popup shows them in full.
            combo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
            combo->setMinimumContentsLength(8);
            for (const auto& c : s.choices) {
                // Experiments are shown with their titles; the value stays the short name.
                const ade::ExperimentInfo* info =
                    key == "experiment" ? ade::findExperiment(c) : nullptr;
                const QString value = QString::fromStdString(c);
                combo->addItem(
                    info ? value + QStringLiteral(" — ") + QString::fromStdString(info->title)
                         : value,
                    value);
            }
            connect(combo, &QComboBox::currentIndexChanged, this,
                    [this, key, combo](int i) { commit(key, combo->itemData(i).toString()); });
            ed = combo;
            break;
        }
        case ade::ParamType::Int:
            if (s.max <= INT_MAX && s.min >= INT_MIN) {
                auto* spin = new QSpinBox(body_);
                spin->setRange(static_cast<int>(s.min), static_cast<int>(s.max));
                spin->setKeyboardTracking(true);
                spin->setAccelerated(true);
                connect(spin, &QSpinBox::valueChanged, this,
                        [this, key](int v) { commit(key, QString::number(v)); });
                ed = spin;
                break;
            }
            [[fallthrough]];
        case ade::ParamType::Real:
        case ade::ParamType::Text: {
            auto* edit = new QLineEdit(body_);
            if (s.logScale) edit->installEventFilter(new LogStepFilter(edit));
            connect(edit, &QLineEdit::textEdited, this,
                    [this, key](const QString& t) { commit(key, t); });
            ed = edit;
            break;
        }
    }
    ed->setObjectName(QString::fromStdString(key));
    f.editor = ed;
    return ed;
}

void ParamForm::loadEditor(Field& f) {
    const nlohmann::json& v = config_.get(f.spec->key);
    const QSignalBlocker block(f.editor);
    if (auto* cb = qobject_cast<QCheckBox*>(f.editor)) {
        cb->setChecked(v.get<bool>());
    } else if (auto* combo = qobject_cast<QComboBox*>(f.editor)) {
        combo->setCurrentIndex(combo->findData(valueText(v)));
    } else if (auto* spin = qobject_cast<QSpinBox*>(f.editor)) {
        spin->setValue(static_cast<int>(v.get<std::int64_t>()));
    } else if (auto* edit = qobject_cast<QLineEdit*>(f.editor)) {
        edit->setText(valueText(v));
        edit->setStyleSheet({});
    }
    f.error->hide();
}

void ParamForm::commit(const std::string& key, const QString& text) {
    if (loading_) return;
    auto it = fields_.find(key);
    if (it == fields_.end()) return;
    Field& f = it->second;
    const auto err = config_.setText(key, text.toStdString());
    f.message = err ? QString::fromStdString(err->message) : QString();
    f.error->setText(f.message);
    f.error->setVisible(!f.message.isEmpty());
    if (auto* edit = qobject_cast<QLineEdit*>(f.editor))
        edit->setStyleSheet(err ? QStringLiteral("QLineEdit { border: 2px solid #b3261e; }")
                                : QString());
    if (key == "experiment" && !err) {
        // Another experiment has other knobs: rebuild after this signal returns.
        QMetaObject::invokeMethod(
            this, [this] { rebuild(); }, Qt::QueuedConnection);
        return;
    }
    refreshValidity();
    emit configChanged();
}

void ParamForm::refreshValidity() {
    QStringList cross;
    for (const auto& e : validateConfig(config_))
        cross << QString::fromStdString(e.message);
    crossErrors_->setText(cross.join(QStringLiteral("\n")));
    crossErrors_->setVisible(!cross.isEmpty());
    const bool valid = isValid();
    if (valid != lastValid_) {
        lastValid_ = valid;
        emit validityChanged(valid);
    }
}

}  // namespace ade::ui
