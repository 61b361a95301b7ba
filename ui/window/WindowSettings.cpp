#include "window/WindowSettings.h"

#include <QAction>
#include <QScreen>
#include <QSettings>
#include <QTabWidget>

#include <algorithm>
#include <map>

#include "charts/ChartArea.h"
#include "form/ParamForm.h"
#include "inspect/InsideView.h"
#include "window/MainWindow.h"
#include "window/PresentationMode.h"
#include "window/RunCommands.h"

namespace ade::ui {

bool restoreWindowSettings(MainWindow& w) {
    QSettings s;
    w.restoreGeometry(s.value(QStringLiteral("window/geometry")).toByteArray());
    w.restoreState(s.value(QStringLiteral("window/state")).toByteArray());
    // A layout saved on a larger screen is fitted to this one.
    if (const QScreen* sc = w.screen(); sc && !sc->availableGeometry().contains(w.frameGeometry()))
        fitToScreen(w);
    ChartArea* charts = w.charts();
    charts->setLogY(s.value(QStringLiteral("charts/logY"), true).toBool());
    charts->setLogX(s.value(QStringLiteral("charts/logX"), false).toBool());
    charts->setWallTimeX(s.value(QStringLiteral("charts/wallTimeX"), false).toBool());
    charts->setSmoothing(s.value(QStringLiteral("charts/smoothing"), 0.0).toDouble());
    w.commands()->setSeeds(s.value(QStringLiteral("run/seeds"), 1).toInt());
    w.action(QStringLiteral("seedsSeparate"))
        ->setChecked(s.value(QStringLiteral("charts/seedsSeparate"), false).toBool());
    {
        std::map<QString, bool> choices;
        const QVariantMap saved = s.value(QStringLiteral("charts/shown")).toMap();
        for (auto it = saved.begin(); it != saved.end(); ++it)
            choices[it.key()] = it.value().toBool();
        charts->setChartChoices(choices);
    }
    bool formRestored = false;
    const QString cfg = s.value(QStringLiteral("form/config")).toString();
    if (!cfg.isEmpty()) {
        const auto j = nlohmann::json::parse(cfg.toStdString(), nullptr, false);
        ade::Config c;
        std::vector<std::string> unknown;  // keys of an older version are dropped
        if (!j.is_discarded() && j.is_object() && !c.apply(j, &unknown)) {
            w.form()->setConfig(c);
            formRestored = true;
        }
    }
    // The centre tab (charts, sweep, inside the model) and the inside view's panel.
    QTabWidget* tabs = w.centreTabs();
    tabs->setCurrentIndex(
        std::clamp(s.value(QStringLiteral("view/tab"), 0).toInt(), 0, tabs->count() - 1));
    InsideView* inside = w.insideView();
    inside->setCurrentIndex(
        std::clamp(s.value(QStringLiteral("view/insidePanel"), 0).toInt(), 0, inside->count() - 1));
    if (s.value(QStringLiteral("view/presentation"), false).toBool())
        w.action(QStringLiteral("presentation"))->setChecked(true);
    return formRestored;
}

void saveWindowSettings(const MainWindow& w) {
    QSettings s;
    const PresentationMode* present = w.presentationMode();
    // The layout without presentation mode (which comes back on its own, from view/presentation).
    s.setValue(QStringLiteral("window/geometry"), present->windowGeometry());
    s.setValue(QStringLiteral("window/state"), present->windowState());
    const ChartArea* charts = w.charts();
    s.setValue(QStringLiteral("charts/logY"), charts->logY());
    s.setValue(QStringLiteral("charts/logX"), charts->logX());
    s.setValue(QStringLiteral("charts/wallTimeX"), charts->wallTimeX());
    s.setValue(QStringLiteral("charts/smoothing"), charts->smoothing());
    s.setValue(QStringLiteral("run/seeds"), w.commands()->seeds());
    s.setValue(QStringLiteral("view/tab"), present->centreTab());
    s.setValue(QStringLiteral("view/insidePanel"), w.insideView()->currentIndex());
    s.setValue(QStringLiteral("charts/seedsSeparate"), charts->seedsSeparate());
    {
        QVariantMap shown;
        for (const auto& [id, on] : charts->chartChoices())
            shown[id] = on;
        s.setValue(QStringLiteral("charts/shown"), shown);
    }
    s.setValue(QStringLiteral("form/config"),
               QString::fromStdString(w.form()->config().toJson().dump()));
    s.setValue(QStringLiteral("view/presentation"), present->isOn());
}

}  // namespace ade::ui
