#include "form/ParamForm.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QCompleter>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpression>
#include <QScrollArea>
#include <QScrollBar>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

#include "config/ParamSpec.h"
#include "experiments/ExperimentRegistry.h"
#include "output/RunOutput.h"

namespace ade::ui {

namespace {

const char* kGroupOrder[] = {"run", "data", "model", "init", "optimizer", "regularizer"};
const char* kErrorColor = "#b3261e";

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

// A header line of fixed height (two lines of text): a message appearing or going never moves
// the fields below it.
QLabel* fixedLine(QWidget* parent, const char* name) {
    auto* l = new QLabel(parent);
    l->setObjectName(QLatin1String(name));
    l->setWordWrap(true);
    l->setTextFormat(Qt::RichText);
    l->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    l->setFixedHeight(2 * l->fontMetrics().lineSpacing() + 8);
    l->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
    return l;
}

}  // namespace

ParamForm::ParamForm(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->setSpacing(2);
    auto* header = new QHBoxLayout;
    problems_ = fixedLine(this, "formProblems");
    connect(problems_, &QLabel::linkActivated, this, [this](const QString& key) { showField(key); });
    auto* reset = new QToolButton(this);
    reset->setObjectName(QStringLiteral("resetForm"));
    reset->setText(tr("Defaults"));
    reset->setToolTip(tr("Reset every parameter of this experiment to its default value "
                         "(the experiment stays; runs are not touched)"));
    reset->setAutoRaise(true);
    connect(reset, &QToolButton::clicked, this, &ParamForm::resetToDefaults);
    header->addWidget(problems_, 1);
    header->addWidget(reset, 0, Qt::AlignTop);
    layout->addLayout(header);
    estimate_ = fixedLine(this, "timeEstimate");
    estimate_->setFixedHeight(estimate_->fontMetrics().lineSpacing() + 4);
    estimate_->setWordWrap(false);
    connect(estimate_, &QLabel::linkActivated, this, [this] { emit measureRequested(); });
    layout->addWidget(estimate_);
    scroll_ = new QScrollArea(this);
    scroll_->setObjectName(QStringLiteral("formScroll"));
    scroll_->setWidgetResizable(true);
    scroll_->setFrameShape(QFrame::NoFrame);
    scroll_->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    layout->addWidget(scroll_, 1);
    scroll_->viewport()->installEventFilter(this);  // the panel's own wheel notches
    connect(qApp, &QApplication::focusChanged, this,
            [this](QWidget*, QWidget* now) { forgetClickOnFocusChange(now); });
    rebuild();
}

QStringList ParamForm::errors() const {
    QStringList out;
    for (const auto& key : order_) {
        const Field& f = fields_.at(key);
        if (!f.message.isEmpty() && config_.isRelevant(key)) out << f.message;
    }
    for (const auto& e : validateConfig(config_))
        out << QString::fromStdString(e.message);
    return out;
}

QString ParamForm::firstProblemKey() const {
    for (const auto& key : order_) {
        const Field& f = fields_.at(key);
        if (!f.message.isEmpty() && config_.isRelevant(key)) return QString::fromStdString(key);
    }
    for (const auto& e : validateConfig(config_))
        if (fields_.count(e.key)) return QString::fromStdString(e.key);
    return {};
}

QWidget* ParamForm::editor(const QString& key) const {
    const auto it = fields_.find(key.toStdString());
    return it == fields_.end() ? nullptr : it->second.editor;
}

void ParamForm::showField(const QString& key) {
    QWidget* ed = editor(key);
    if (!ed) return;
    scroll_->ensureWidgetVisible(ed, 20, 40);
    ed->setFocus(Qt::OtherFocusReason);
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

void ParamForm::setEstimate(const QString& text, const QString& link, const QString& tooltip) {
    estimateText_ = text;
    estimateLink_ = link;
    const QString whole = link.isEmpty() ? text : text + QStringLiteral(" · ") + link;
    estimate_->setToolTip(tooltip.isEmpty() ? whole
                                            : QStringLiteral("<p>%1</p><p>%2</p>").arg(whole, tooltip));
    fitHeader();
}

void ParamForm::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    fitHeader();
}

void ParamForm::fitHeader() {
    // The estimate: one line, its text cut with "…" so that the link after it always shows.
    const QFontMetrics fm = estimate_->fontMetrics();
    const int width = estimate_->contentsRect().width() - 4;
    QString linkPlain = estimateLink_;
    linkPlain.remove(QRegularExpression(QStringLiteral("<[^>]*>")));
    const QString sep = estimateLink_.isEmpty() ? QString() : QStringLiteral(" · ");
    const QString text =
        fm.elidedText(estimateText_, Qt::ElideRight,
                      std::max(0, width - fm.horizontalAdvance(sep + linkPlain)));
    estimate_->setText(text.toHtmlEscaped() + sep + estimateLink_);
    // The first problem: at most its two lines (a third would run into the estimate's line),
    // words dropped from the end with "…"; the link to the field first, the count last.
    if (problemText_.isEmpty()) return;
    const auto html = [&](const QString& message) {
        return problemLink_ + QStringLiteral("<span style='color:%1'>%2</span>")
                                  .arg(QLatin1String(kErrorColor), message.toHtmlEscaped()) +
               problemMore_;
    };
    const int room = problems_->contentsRect().height();
    QStringList words = problemText_.split(QLatin1Char(' '));
    QString message = problemText_;
    problems_->setText(html(message));
    while (words.size() > 1 && problems_->heightForWidth(problems_->width()) > room) {
        words.removeLast();
        message = words.join(QLatin1Char(' ')) + QStringLiteral("…");
        problems_->setText(html(message));
    }
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

void ParamForm::resetToDefaults() {
    ade::Config c;
    c.setJson("experiment", config_.experiment());
    setConfig(c);
}

void ParamForm::rebuild() {
    const int scrolled = body_ ? scroll_->verticalScrollBar()->value() : 0;
    fields_.clear();
    order_.clear();
    body_ = new QWidget;
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
            order_.push_back(s.key);
            f.spec = &s;
            QWidget* ed = makeEditor(f);
            ed->setParent(box);
            f.tip = QStringLiteral("<b>%1</b> (<code>%2</code>)<br>%3<br><i>%4</i>")
                        .arg(QString::fromStdString(s.label).toHtmlEscaped(),
                             QString::fromStdString(s.key),
                             QString::fromStdString(s.help).toHtmlEscaped(),
                             QString::fromStdString(s.allowedText()));
            f.label = new QLabel(QString::fromStdString(s.label), box);
            f.label->setObjectName(QString::fromStdString(s.key) + QStringLiteral(".label"));
            f.label->setBuddy(ed);
            form->addRow(f.label, ed);
            loadEditor(f);
        }
    }
    bodyLayout->addStretch(1);
    // The old body goes once control is back in the event loop (a rebuild can come from one of
    // its editors' signals).
    if (QWidget* old = scroll_->takeWidget()) old->deleteLater();
    scroll_->setWidget(body_);
    scroll_->verticalScrollBar()->setValue(scrolled);
    loading_ = false;
    refreshValidity();
    emit configChanged();
}

void ParamForm::loadEditor(Field& f) {
    const nlohmann::json& v = config_.get(f.spec->key);
    const QSignalBlocker block(f.editor);
    if (auto* cb = qobject_cast<QCheckBox*>(f.editor)) {
        cb->setChecked(v.get<bool>());
    } else if (auto* combo = qobject_cast<QComboBox*>(f.editor)) {
        combo->setCurrentIndex(combo->findData(valueText(v)));
    } else if (auto* edit = qobject_cast<QLineEdit*>(f.editor)) {
        edit->setText(valueText(v));
    }
}

void ParamForm::commit(const std::string& key, const QString& text) {
    if (loading_) return;
    auto it = fields_.find(key);
    if (it == fields_.end()) return;
    Field& f = it->second;
    const auto err = config_.setText(key, text.trimmed().toStdString());
    f.message = err ? QString::fromStdString(err->message) : QString();
    if (key == "experiment" && !err) {
        // Another experiment has other knobs: rebuild after this signal returns.
        QMetaObject::invokeMethod(
            this, [this] { rebuild(); }, Qt::QueuedConnection);
        return;
    }
    refreshValidity();
    emit configChanged();
}

void ParamForm::refreshField(Field& f, const QString& crossMessage) {
    std::string why;
    const bool relevant = config_.isRelevant(f.spec->key, &why);
    f.editor->setEnabled(relevant);
    f.label->setEnabled(relevant);
    const QString message = !relevant ? QString() : !f.message.isEmpty() ? f.message : crossMessage;
    QString tip = f.tip;
    if (!relevant)
        tip += QStringLiteral("<br><b>%1</b> %2")
                   .arg(tr("Not used now:"), QString::fromStdString(why).toHtmlEscaped());
    if (!message.isEmpty())
        tip += QStringLiteral("<br><span style='color:%1'><b>%2</b> %3</span>")
                   .arg(QLatin1String(kErrorColor), tr("Refused:"), message.toHtmlEscaped());
    if (f.editor->toolTip() != tip) {
        f.editor->setToolTip(tip);
        f.label->setToolTip(tip);
    }
    // Marked by colour only (a light red field, a red label): no border or font change, so
    // the marking never changes a size and nothing moves.
    const bool marked = !message.isEmpty();
    if (f.editor->property("ade.marked").toBool() != marked) {
        f.editor->setProperty("ade.marked", marked);
        if (marked) {
            QPalette p = f.editor->palette();
            p.setColor(QPalette::Base, QColor(0xfd, 0xe0, 0xdc));
            p.setColor(QPalette::Button, QColor(0xfd, 0xe0, 0xdc));
            p.setColor(QPalette::Text, QColor(QLatin1String(kErrorColor)));
            f.editor->setPalette(p);
            QPalette lp = f.label->palette();
            lp.setColor(QPalette::WindowText, QColor(QLatin1String(kErrorColor)));
            f.label->setPalette(lp);
        } else {
            f.editor->setPalette(QPalette());
            f.label->setPalette(QPalette());
        }
    }
}

void ParamForm::refreshValidity() {
    std::map<std::string, QString> cross;
    for (const auto& e : validateConfig(config_))
        cross[e.key] += (cross[e.key].isEmpty() ? "" : "\n") + QString::fromStdString(e.message);
    for (const auto& key : order_)
        refreshField(fields_.at(key), cross.count(key) ? cross[key] : QString());
    const QStringList problems = errors();
    if (problems.isEmpty()) {
        problemText_.clear();
        problems_->setText(QStringLiteral("<span style='color:#6b6b6b'>%1</span>")
                               .arg(tr("All values are valid.")));
        problems_->setToolTip({});
    } else {
        const QString key = firstProblemKey();
        // The link first: a long message is cut at the second line, the link never.
        problemLink_ = key.isEmpty()
                           ? QString()
                           : QStringLiteral("<a href='%1'>%2</a> ").arg(key, tr("Show"));
        problemText_ = problems.front();
        problemMore_ = problems.size() > 1
                           ? tr(" (and %n more)", nullptr, int(problems.size() - 1))
                           : QString();
        problems_->setToolTip(problems.join(QStringLiteral("\n")));
        fitHeader();
    }
    const bool valid = problems.isEmpty();
    if (valid != lastValid_) {
        lastValid_ = valid;
        emit validityChanged(valid);
    }
}

}  // namespace ade::ui
