// ParamForm: the editors of the knobs and how they take keys and the wheel (see ParamForm.h).
#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QKeyEvent>
#include <QLineEdit>
#include <QScrollArea>
#include <QScrollBar>
#include <QWheelEvent>

#include <cmath>

#include "form/ParamForm.h"
#include "config/ParamSpec.h"
#include "experiments/ExperimentRegistry.h"
#include "output/RunOutput.h"

namespace ade::ui {

namespace {
const char* kKeyProperty = "ade.key";
}

QWidget* ParamForm::makeEditor(Field& f) {
    const ade::ParamSpec& s = *f.spec;
    const std::string key = s.key;
    QWidget* ed = nullptr;
    switch (s.type) {
        case ade::ParamType::Bool: {
            auto* cb = new QCheckBox;
            connect(cb, &QCheckBox::toggled, this,
                    [this, key](bool on) { commit(key, on ? "true" : "false"); });
            ed = cb;
            break;
        }
        case ade::ParamType::Choice: {
            auto* combo = new QComboBox;
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
        case ade::ParamType::Real:
        case ade::ParamType::Text: {
            // Integers too: a spin box would clamp ("-5" -> 5, 99999999999 -> its maximum)
            // where the form must refuse and say why.
            auto* edit = new QLineEdit;
            if (s.type == ade::ParamType::Int) edit->setInputMethodHints(Qt::ImhFormattedNumbersOnly);
            connect(edit, &QLineEdit::textEdited, this,
                    [this, key](const QString& t) { commit(key, t); });
            ed = edit;
            break;
        }
    }
    ed->setObjectName(QString::fromStdString(key));
    ed->setProperty(kKeyProperty, QString::fromStdString(key));
    // The wheel reaches a field only through the filter below, and never gives it the focus.
    ed->setFocusPolicy(Qt::StrongFocus);
    ed->installEventFilter(this);
    f.editor = ed;
    return ed;
}

bool ParamForm::stepField(QWidget* editor, int steps) {
    auto* edit = qobject_cast<QLineEdit*>(editor);
    if (!edit || steps == 0) return false;
    const auto it = fields_.find(edit->property(kKeyProperty).toString().toStdString());
    if (it == fields_.end()) return false;
    const ade::ParamSpec& s = *it->second.spec;
    QString text;
    if (s.type == ade::ParamType::Int) {
        bool ok = false;
        const qlonglong v = edit->text().trimmed().toLongLong(&ok);
        if (!ok) return true;  // nothing sensible to step from: the key is used, nothing changes
        const double next = static_cast<double>(v) + steps;
        if (next < s.min || next > s.max) return true;  // stepping never leaves the range
        text = QString::number(v + steps);
    } else if (s.type == ade::ParamType::Real && s.logScale) {
        bool ok = false;
        const double v = edit->text().trimmed().toDouble(&ok);
        if (!ok || v <= 0) return true;
        const double next = v * std::pow(2.0, steps);
        if (next > s.max) return true;
        text = QString::fromStdString(ade::formatNumber(next));
    } else {
        return false;
    }
    edit->setText(text);
    emit edit->textEdited(text);
    return true;
}

bool ParamForm::eventFilter(QObject* watched, QEvent* event) {
    auto* ed = qobject_cast<QWidget*>(watched);
    if (!ed || !ed->property(kKeyProperty).isValid()) return QWidget::eventFilter(watched, event);
    const bool freeText = [&] {
        const auto it = fields_.find(ed->property(kKeyProperty).toString().toStdString());
        return it != fields_.end() && it->second.spec->type == ade::ParamType::Text;
    }();
    switch (event->type()) {
        case QEvent::Wheel: {
            auto* wheel = static_cast<QWheelEvent*>(event);
            if (!ed->hasFocus()) {
                // Not the focused field: the wheel scrolls the panel, the value stays.
                QCoreApplication::sendEvent(scroll_->verticalScrollBar(), wheel);
                return true;
            }
            const int notches = wheel->angleDelta().y() / 120;
            if (qobject_cast<QLineEdit*>(ed)) {
                stepField(ed, notches);
                return true;  // a focused text field never scrolls the panel under the pointer
            }
            return false;  // a focused choice: its own wheel handling
        }
        case QEvent::ShortcutOverride:
        case QEvent::KeyPress: {
            auto* key = static_cast<QKeyEvent*>(event);
            if (key->key() == Qt::Key_Space && key->modifiers() == Qt::NoModifier && !freeText) {
                // Space is Play / Pause everywhere but in free text: not accepting the
                // override lets the window's shortcut have it; a stray press is dropped.
                event->ignore();
                return true;
            }
            if (event->type() == QEvent::KeyPress &&
                (key->key() == Qt::Key_Up || key->key() == Qt::Key_Down) &&
                qobject_cast<QLineEdit*>(ed))
                return stepField(ed, key->key() == Qt::Key_Up ? 1 : -1);
            return false;
        }
        default:
            return false;
    }
}

}  // namespace ade::ui
