#include "base/FigureFile.h"

#include <QBuffer>
#include <QImage>
#include <QObject>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QSvgGenerator>

#include <string>

#include "io/Files.h"

namespace ade::ui {

bool parseFigureFormat(const QString& text, FigureFormat* out) {
    const QString t = text.trimmed().toLower();
    if (t == "png")
        *out = FigureFormat::Png;
    else if (t == "svg")
        *out = FigureFormat::Svg;
    else if (t == "pdf")
        *out = FigureFormat::Pdf;
    else if (t == "pgf" || t == "tex")
        *out = FigureFormat::Pgf;
    else if (t == "mpl" || t == "py")
        *out = FigureFormat::Mpl;
    else
        return false;
    return true;
}

QString figureSuffix(FigureFormat f) {
    switch (f) {
        case FigureFormat::Png:
            return QStringLiteral("png");
        case FigureFormat::Svg:
            return QStringLiteral("svg");
        case FigureFormat::Pdf:
            return QStringLiteral("pdf");
        case FigureFormat::Pgf:
            return QStringLiteral("tex");
        case FigureFormat::Mpl:
            return QStringLiteral("py");
    }
    return {};
}

bool isPaintedFormat(FigureFormat f) {
    return f == FigureFormat::Png || f == FigureFormat::Svg || f == FigureFormat::Pdf;
}

bool renderPainting(const std::function<void(QPainter&, const QRectF&)>& paint, QSize size,
                    double scale, FigureFormat format, const QString& path, const QString& title,
                    const QString& metadata, QString* error) {
    if (!isPaintedFormat(format)) {
        if (error)
            *error = QObject::tr("%1: PGFPlots and matplotlib exports are of charts only")
                         .arg(path);
        return false;
    }
    QByteArray bytes;
    QBuffer file(&bytes);
    file.open(QIODevice::WriteOnly);
    const QRectF area(QPointF(0, 0), QSizeF(size));
    bool ok = true;
    if (format == FigureFormat::Png) {
        QImage image(size * scale, QImage::Format_ARGB32_Premultiplied);
        image.setDevicePixelRatio(scale);
        image.fill(Qt::white);
        {
            QPainter p(&image);
            paint(p, area);
        }
        image.setText(QStringLiteral("Title"), title);
        image.setText(QStringLiteral("Software"), QStringLiteral("Attention Dynamics Explorer"));
        image.setText(QStringLiteral("Description"), metadata);
        ok = image.save(&file, "PNG");
    } else if (format == FigureFormat::Svg) {
        QSvgGenerator svg;
        svg.setOutputDevice(&file);
        svg.setSize(size);
        svg.setViewBox(area);
        // 96 dpi, as the screen the text was laid out for (and the PNG and PDF): at the default
        // 72 a 12 pt font is written as font-size 12 in a layout made for 16 px, so librsvg and
        // browsers drew text smaller than its room (gaps before each subscript).
        svg.setResolution(96);
        svg.setTitle(title);
        svg.setDescription(metadata);
        QPainter p;
        ok = p.begin(&svg);
        if (ok) {
            paint(p, area);
            ok = p.end();
        }
    } else {
        QPdfWriter pdf(&file);
        pdf.setTitle(title);
        pdf.setCreator(metadata.isEmpty() ? QStringLiteral("Attention Dynamics Explorer")
                                          : QStringLiteral("Attention Dynamics Explorer. ") + metadata);
        pdf.setResolution(96);
        pdf.setPageSize(QPageSize(QSizeF(size), QPageSize::Point));
        pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
        QPainter p;
        ok = p.begin(&pdf);
        if (ok) {
            // The page in device pixels: scale the logical area onto it.
            const QRectF vp(QPointF(0, 0), QSizeF(p.viewport().size()));
            p.scale(vp.width() / area.width(), vp.height() / area.height());
            paint(p, area);
            ok = p.end();
        }
    }
    file.close();
    return writeRenderedFigure(ok, bytes, path, error);
}

bool writeRenderedFigure(bool rendered, const QByteArray& bytes, const QString& path,
                         QString* error) {
    if (!rendered) {
        if (error) *error = QObject::tr("cannot render %1").arg(path);
        return false;
    }
    std::string err;
    if (!ade::writeFileAtomic(path.toStdString(), bytes.toStdString(), &err)) {
        if (error) *error = QString::fromStdString(err);
        return false;
    }
    return true;
}

}  // namespace ade::ui
