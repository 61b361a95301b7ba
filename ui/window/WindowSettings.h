#pragma once
// The window's settings between sittings (QSettings): its layout (without presentation mode,
// which comes back on its own), the charts' axes, smoothing and chosen charts, the seeds per run,
// the form's config, the centre tab and the inside view's panel, presentation mode.
namespace ade::ui {

class MainWindow;

// True when the form's config came back (then no default preset is loaded at start).
bool restoreWindowSettings(MainWindow& window);
void saveWindowSettings(const MainWindow& window);

}  // namespace ade::ui
