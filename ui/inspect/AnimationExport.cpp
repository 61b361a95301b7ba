#include "inspect/AnimationExport.h"

#include <QDir>
#include <QFileInfo>
#include <QPainter>
#include <QProcess>
#include <QStandardPaths>

namespace ade::ui {

AnimationFormat animationFormatFor(const QString& file) {
    const QString suffix = QFileInfo(file).suffix().toLower();
    if (suffix == QLatin1String("mp4")) return AnimationFormat::Mp4;
    if (suffix == QLatin1String("gif")) return AnimationFormat::Gif;
    return AnimationFormat::PngSequence;
}

bool parseAnimationFormat(const QString& text, AnimationFormat* out) {
    const QString t = text.trimmed().toLower();
    if (t == QLatin1String("mp4"))
        *out = AnimationFormat::Mp4;
    else if (t == QLatin1String("gif"))
        *out = AnimationFormat::Gif;
    else if (t == QLatin1String("png"))
        *out = AnimationFormat::PngSequence;
    else
        return false;
    return true;
}

QString animationFormatName(AnimationFormat f) {
    switch (f) {
        case AnimationFormat::Mp4:
            return QStringLiteral("mp4");
        case AnimationFormat::Gif:
            return QStringLiteral("gif");
        case AnimationFormat::PngSequence:
            break;
    }
    return QStringLiteral("png");
}

QString ffmpegProgram() {
    return QStandardPaths::findExecutable(QStringLiteral("ffmpeg"));
}

namespace {

// The frame at exactly `size` (letterboxed on white when the renderer's aspect differs).
QImage fitted(const QImage& frame, QSize size) {
    if (frame.size() == size) return frame.convertToFormat(QImage::Format_RGB32);
    QImage out(size, QImage::Format_RGB32);
    out.fill(Qt::white);
    if (frame.isNull()) return out;
    const QImage scaled = frame.scaled(size, Qt::KeepAspectRatio, Qt::SmoothTransformation);
    QPainter p(&out);
    p.drawImage((size.width() - scaled.width()) / 2, (size.height() - scaled.height()) / 2,
                scaled);
    return out;
}

bool runFfmpeg(const QStringList& args, QString* error) {
    QProcess ffmpeg;
    ffmpeg.setProcessChannelMode(QProcess::MergedChannels);
    ffmpeg.start(ffmpegProgram(), args);
    if (!ffmpeg.waitForStarted(10000)) {
        *error = QObject::tr("cannot start ffmpeg: %1").arg(ffmpeg.errorString());
        return false;
    }
    ffmpeg.waitForFinished(-1);
    if (ffmpeg.exitStatus() != QProcess::NormalExit || ffmpeg.exitCode() != 0) {
        const QString out = QString::fromLocal8Bit(ffmpeg.readAll()).trimmed();
        *error = QObject::tr("ffmpeg failed (exit %1): %2").arg(ffmpeg.exitCode()).arg(out.right(600));
        return false;
    }
    return true;
}

}  // namespace

AnimationResult exportAnimation(const FrameRenderer& render, const std::vector<long>& iterations,
                                const AnimationOptions& options,
                                const std::function<bool(int, int)>& progress) {
    AnimationResult r;
    if (iterations.empty()) {
        r.error = QObject::tr("no frames: the run has no parameter snapshots (snapshots = 0, or "
                              "a session saved before snapshots existed)");
        return r;
    }
    if (options.fps < 1 || options.fps > 120) {
        r.error = QObject::tr("fps must be between 1 and 120");
        return r;
    }
    const QSize size(options.size.width() / 2 * 2, options.size.height() / 2 * 2);
    if (size.width() < 16 || size.height() < 16 || size.width() > 7680 || size.height() > 4320) {
        r.error = QObject::tr("frame size %1x%2 is outside 16x16 to 7680x4320")
                      .arg(options.size.width())
                      .arg(options.size.height());
        return r;
    }
    const bool film = options.format != AnimationFormat::PngSequence;
    const QFileInfo target(options.file);
    r.framesFolder = film ? target.dir().filePath(target.completeBaseName() + "_frames")
                          : target.filePath();
    QDir frames(r.framesFolder);
    if (!QDir().mkpath(r.framesFolder) || !QDir().mkpath(target.absolutePath())) {
        r.error = QObject::tr("cannot create the folder %1").arg(r.framesFolder);
        return r;
    }
    // Frames of an earlier export with more snapshots would join the film: remove them.
    for (const QString& old : frames.entryList({QStringLiteral("frame_*.png")}, QDir::Files))
        frames.remove(old);
    const int total = static_cast<int>(iterations.size());
    for (int i = 0; i < total; ++i) {
        const QImage frame = fitted(render(iterations[static_cast<std::size_t>(i)]), size);
        const QString path = frames.filePath(QStringLiteral("frame_%1.png").arg(i + 1, 5, 10, QChar('0')));
        if (!frame.save(path, "PNG")) {
            r.error = QObject::tr("cannot write %1").arg(path);
            return r;
        }
        r.frames << path;
        if (progress && !progress(i + 1, total)) {
            r.error = QObject::tr("cancelled after %1 of %2 frames").arg(i + 1).arg(total);
            return r;
        }
    }
    r.seconds = static_cast<double>(total) / options.fps;
    if (!film) {
        r.ok = true;
        return r;
    }
    if (ffmpegProgram().isEmpty()) {
        r.error = QObject::tr("the ffmpeg command was not found, so no %1 was made; the %2 PNG "
                              "frames are in %3. Install ffmpeg (Debian/Ubuntu: apt-get install "
                              "ffmpeg) or choose the PNG sequence.")
                      .arg(animationFormatName(options.format).toUpper())
                      .arg(total)
                      .arg(r.framesFolder);
        return r;
    }
    const QString pattern = frames.filePath(QStringLiteral("frame_%05d.png"));
    QStringList args = {QStringLiteral("-y"), QStringLiteral("-loglevel"), QStringLiteral("error"),
                        QStringLiteral("-framerate"), QString::number(options.fps),
                        QStringLiteral("-i"), pattern};
    if (options.format == AnimationFormat::Mp4)
        args << QStringLiteral("-c:v") << QStringLiteral("libx264") << QStringLiteral("-pix_fmt")
             << QStringLiteral("yuv420p") << QStringLiteral("-vf")
             << QStringLiteral("scale=trunc(iw/2)*2:trunc(ih/2)*2") << QStringLiteral("-movflags")
             << QStringLiteral("+faststart");
    else  // one palette for the whole film, then each frame mapped onto it
        args << QStringLiteral("-vf")
             << QStringLiteral("split[a][b];[a]palettegen=stats_mode=full[p];[b][p]paletteuse")
             << QStringLiteral("-loop") << QStringLiteral("0");
    args << target.absoluteFilePath();
    if (!runFfmpeg(args, &r.error)) return r;
    r.film = target.absoluteFilePath();
    r.ok = true;
    return r;
}

}  // namespace ade::ui
