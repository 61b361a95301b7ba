#pragma once
// Text of the "About this experiment" panel: the preset's own explanation (what to look for)
// followed by the formulas in use for the experiment (from docs/MODELS.md). Text only.
#include <QString>

#include <string>

namespace ade::ui {

QString experimentFormulasHtml(const std::string& experiment);
QString aboutHtml(const std::string& experiment, const QString& presetName,
                  const QString& presetDescription, const QString& presetAbout);

}  // namespace ade::ui
