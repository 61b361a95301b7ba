#pragma once
// The loss landscape as a 3-D surface the audience can rotate (drag to rotate, wheel to zoom):
// Qt Data Visualization's Q3DSurface in a window container. It needs OpenGL; when no OpenGL
// context can be made (no GPU and no Mesa), the widget says so and the contour map
// (LandscapeMap.h), which is also the export format, stays the view.
#include <QWidget>

#include <memory>

namespace ade::ui {

struct LandscapeOutcome;

class LandscapeSurface : public QWidget {
    Q_OBJECT
  public:
    explicit LandscapeSurface(QWidget* parent = nullptr);
    ~LandscapeSurface() override;

    // Whether an OpenGL context can be made here (checked once per process).
    static bool openGlAvailable();
    bool hasSurface() const;  // the 3-D graph was created
    QString unavailableText() const;

    void setLandscape(std::shared_ptr<const LandscapeOutcome> outcome, bool dataLossOnly);

  protected:
    void showEvent(QShowEvent* e) override;

  private:
    void createGraph();
    void fill();
    struct Impl;
    std::unique_ptr<Impl> d_;
};

}  // namespace ade::ui
