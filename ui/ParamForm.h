#pragma once
// The parameter panel, generated from ade::ParamRegistry: one editor per key that applies to the
// selected experiment, grouped (run, data, model, init, optimizer, regularizer). Integers use
// spin boxes clamped to their range (out-of-range values cannot be typed); reals and long
// integers are validated by ade::Config as they are typed and, when invalid, marked with the
// reason beside the control. Cross-key problems (Config::validate) are listed under the form.
#include <QWidget>

#include <map>
#include <string>

#include "config/Config.h"

class QLabel;
class QVBoxLayout;

namespace ade {
struct ParamSpec;
}

namespace ade::ui {

class ParamForm : public QWidget {
    Q_OBJECT
  public:
    explicit ParamForm(QWidget* parent = nullptr);

    // The config made of every valid value (invalid fields keep their last valid value).
    const ade::Config& config() const { return config_; }
    bool isValid() const { return errors().isEmpty(); }
    QStringList errors() const;                 // per-field and cross-key messages
    void setConfig(const ade::Config& config);  // fills every editor, rebuilds on experiment
    // The editor of a key (objectName = key), for tests and focus handling.
    QWidget* editor(const QString& key) const;
    // Completion list for a text key (e.g. init_from: the names of the runs in the list).
    void setSuggestions(const QString& key, const QStringList& values);

  signals:
    void validityChanged(bool valid);
    void configChanged();

  private:
    struct Field {
        const ade::ParamSpec* spec = nullptr;
        QWidget* editor = nullptr;
        QLabel* error = nullptr;
        QString message;
    };
    void rebuild();
    QWidget* makeEditor(Field& f);
    void loadEditor(Field& f);
    void commit(const std::string& key, const QString& text);
    void refreshValidity();

    ade::Config config_;
    std::map<std::string, Field> fields_;
    QWidget* body_ = nullptr;
    QVBoxLayout* layout_ = nullptr;
    QLabel* crossErrors_ = nullptr;
    bool lastValid_ = true;
    bool loading_ = false;
};

}  // namespace ade::ui
