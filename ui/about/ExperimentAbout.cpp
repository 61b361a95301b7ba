#include "about/ExperimentAbout.h"

#include "experiments/ExperimentRegistry.h"

namespace ade::ui {

QString experimentFormulasHtml(const std::string& experiment) {
    const ade::ExperimentInfo* info = ade::findExperiment(experiment);
    if (!info)
        return QStringLiteral("<p>This version does not know the experiment '%1'.</p>")
            .arg(QString::fromStdString(experiment).toHtmlEscaped());
    return QString::fromStdString(info->aboutHtml);
}

QString aboutHtml(const std::string& experiment, const QString& presetName,
                  const QString& presetDescription, const QString& presetAbout) {
    const ade::ExperimentInfo* info = ade::findExperiment(experiment);
    QString html =
        QStringLiteral("<h2>%1</h2>")
            .arg(info ? QString::fromStdString(info->title).toHtmlEscaped()
                      : QStringLiteral("Experiment %1").arg(QString::fromStdString(experiment)));
    if (!presetName.isEmpty()) {
        html += QStringLiteral("<p><b>Preset %1</b>: %2</p>")
                    .arg(presetName.toHtmlEscaped(), presetDescription.toHtmlEscaped());
        if (!presetAbout.isEmpty())
            html += QStringLiteral("<p>%1</p>").arg(presetAbout.toHtmlEscaped());
    }
    return html + experimentFormulasHtml(experiment);
}

}  // namespace ade::ui
