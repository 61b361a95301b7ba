#pragma once
// A run as an animation over its parameter snapshots, for a slide: a frame per iteration from a
// frame renderer (any QImage source: the charts with the time cursor, the inside views' panels),
// written as a PNG sequence always, and as MP4 (H.264, yuv420p) or an animated GIF (one palette
// for the whole film: palettegen / paletteuse) by the `ffmpeg` command. The GUI's
// File > Export animation… and `attention-explorer-cli animate` both call this.
#include <QImage>
#include <QSize>
#include <QString>
#include <QStringList>

#include <functional>
#include <vector>

namespace ade::ui {

enum class AnimationFormat { PngSequence, Mp4, Gif };

// The frame of one iteration (any size: frames are scaled to the options' size).
using FrameRenderer = std::function<QImage(long iteration)>;

struct AnimationOptions {
    AnimationFormat format = AnimationFormat::Mp4;
    // The film (.mp4 / .gif); for a PNG sequence the folder of the frames. The frames of a film
    // go to "<file without suffix>_frames/" beside it.
    QString file;
    int fps = 10;
    QSize size{1280, 720};  // rounded down to even numbers (H.264 with yuv420p needs them)
};

struct AnimationResult {
    bool ok = false;
    QString error;         // what went wrong, in words a teacher can act on
    QString framesFolder;  // where the PNG frames are (written even when ffmpeg is missing)
    QStringList frames;
    QString film;  // the .mp4 / .gif written ("" for a PNG sequence)
    double seconds = 0.0;  // the film's length: frames / fps
};

// Format from a file name: .mp4 -> Mp4, .gif -> Gif, anything else a PNG sequence (a folder).
AnimationFormat animationFormatFor(const QString& file);
bool parseAnimationFormat(const QString& text, AnimationFormat* out);  // "mp4", "gif", "png"
QString animationFormatName(AnimationFormat f);
// The ffmpeg program on PATH ("" when there is none).
QString ffmpegProgram();

// Renders every iteration's frame and writes the animation. `progress(done, total)` is called
// after each frame (and returns false to cancel).
AnimationResult exportAnimation(const FrameRenderer& render, const std::vector<long>& iterations,
                                const AnimationOptions& options,
                                const std::function<bool(int, int)>& progress = {});

}  // namespace ade::ui
