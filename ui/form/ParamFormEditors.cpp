// ParamForm: the editors of the knobs and how they take keys and the wheel (see ParamForm.h).
#include <QCheckBox>
#include <QComboBox>
#include <QApplication>
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
// How long after the panel's last notch a field under the pointer still takes no notch, when
// the pointer has moved (a hand on the mouse jitters while it scrolls).
constexpr qint64 kWheelGestureMs = 600;
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
    // The wheel reaches a field only through the filter below, and never gives it the focus;
    // a click does (and lets the wheel step it).
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

bool ParamForm::panelHasTheWheel(const QWheelEvent& wheel) const {
    // A wheel gesture that started on the panel stays with the panel (as browsers keep a
    // "wheel transaction"): while the pointer stays where the panel's last notch found it, or
    // for a moment after that notch, a field scrolled under the pointer takes no notch.
    if (!panelWheelAt_) return false;
    const QPointF moved = wheel.globalPosition() - *panelWheelAt_;
    const bool stayed = moved.manhattanLength() <= QApplication::startDragDistance();
    return stayed || panelWheelClock_.elapsed() < kWheelGestureMs;
}

void ParamForm::forgetClickOnFocusChange(QWidget* now) {
    // The focus moving to another widget (Tab, a click elsewhere, a shortcut) ends the click;
    // a choice's own popup, or the window losing the focus for a moment (now = null), does not.
    if (!clickedField_ || !now) return;
    for (QWidget* w = now; w; w = w->parentWidget())
        if (w == clickedField_) return;
    clickedField_ = nullptr;
}

void ParamForm::scrollPanel(QWheelEvent* wheel) {
    panelWheelAt_ = wheel->globalPosition();
    panelWheelClock_.start();
    QCoreApplication::sendEvent(scroll_->verticalScrollBar(), wheel);
    wheel->accept();  // taken here: not passed on to the panel a second time
}

bool ParamForm::eventFilter(QObject* watched, QEvent* event) {
    if (watched == scroll_->viewport()) {
        // Notches over labels and gaps reach the panel here: they start or continue its gesture.
        if (event->type() == QEvent::Wheel) {
            panelWheelAt_ = static_cast<QWheelEvent*>(event)->globalPosition();
            panelWheelClock_.start();
        } else if (event->type() == QEvent::MouseButtonPress) {
            panelWheelAt_.reset();
        }
        return false;
    }
    auto* ed = qobject_cast<QWidget*>(watched);
    if (!ed || !ed->property(kKeyProperty).isValid()) return QWidget::eventFilter(watched, event);
    const bool freeText = [&] {
        const auto it = fields_.find(ed->property(kKeyProperty).toString().toStdString());
        return it != fields_.end() && it->second.spec->type == ade::ParamType::Text;
    }();
    switch (event->type()) {
        case QEvent::MouseButtonPress:
            // Clicking into a field is what lets the wheel change it; the click also ends the
            // panel's wheel gesture.
            clickedField_ = ed;
            panelWheelAt_.reset();
            return false;
        case QEvent::Wheel: {
            auto* wheel = static_cast<QWheelEvent*>(event);
            // Only a field the user clicked into, still focused, takes the wheel, and not while
            // the panel is being scrolled under the pointer (focus by Tab, Show or a click
            // elsewhere never lets the wheel change a value).
            if (!ed->hasFocus() || clickedField_ != ed || panelHasTheWheel(*wheel)) {
                scrollPanel(wheel);  // the wheel scrolls the panel, the value stays
                return true;
            }
            const int notches = wheel->angleDelta().y() / 120;
            if (qobject_cast<QLineEdit*>(ed)) {
                stepField(ed, notches);
                // Accepted, or Qt passes the notch on to the parents and the panel scrolls too.
                wheel->accept();
                return true;
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
