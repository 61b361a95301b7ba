#include "charts/FigurePgf.h"

#include <QFileInfo>
#include <QDir>
#include <QObject>

#include <cmath>
#include <map>
#include <string>

#include "charts/FigureRenderer.h"
#include "charts/FigureText.h"
#include "io/Files.h"

namespace ade::ui {

namespace {

const std::map<char16_t, const char*>& symbols() {
    static const std::map<char16_t, const char*> m = {
        {u'α', "$\\alpha$"},   {u'β', "$\\beta$"},     {u'γ', "$\\gamma$"},  {u'δ', "$\\delta$"},
        {u'ε', "$\\varepsilon$"}, {u'η', "$\\eta$"},   {u'θ', "$\\theta$"},  {u'κ', "$\\kappa$"},
        {u'λ', "$\\lambda$"},  {u'μ', "$\\mu$"},       {u'ν', "$\\nu$"},     {u'π', "$\\pi$"},
        {u'ρ', "$\\rho$"},     {u'σ', "$\\sigma$"},    {u'τ', "$\\tau$"},    {u'φ', "$\\varphi$"},
        {u'χ', "$\\chi$"},     {u'ψ', "$\\psi$"},      {u'ω', "$\\omega$"},  {u'Γ', "$\\Gamma$"},
        {u'Δ', "$\\Delta$"},   {u'Θ', "$\\Theta$"},    {u'Λ', "$\\Lambda$"}, {u'Π', "$\\Pi$"},
        {u'Σ', "$\\Sigma$"},   {u'Φ', "$\\Phi$"},      {u'Ψ', "$\\Psi$"},    {u'Ω', "$\\Omega$"},
        {u'‖', "$\\|$"},       {u'−', "$-$"},          {u'·', "$\\cdot$"},   {u'→', "$\\rightarrow$"},
        {u'∞', "$\\infty$"},   {u'≈', "$\\approx$"},   {u'≤', "$\\leq$"},    {u'≥', "$\\geq$"},
        {u'×', "$\\times$"},   {u'∈', "$\\in$"},       {u'√', "$\\surd$"},   {u'∇', "$\\nabla$"},
        {u'±', "$\\pm$"},      {u'½', "$\\frac{1}{2}$"}, {u'–', "--"},      {u'—', "---"},
        {u'ᵀ', "\\textsuperscript{T}"}, {u'⁻', "\\textsuperscript{$-$}"},
        {u'⁰', "\\textsuperscript{0}"}, {u'¹', "\\textsuperscript{1}"}, {u'²', "\\textsuperscript{2}"},
        {u'³', "\\textsuperscript{3}"}, {u'⁴', "\\textsuperscript{4}"}, {u'⁵', "\\textsuperscript{5}"},
        {u'⁶', "\\textsuperscript{6}"}, {u'⁷', "\\textsuperscript{7}"}, {u'⁸', "\\textsuperscript{8}"},
        {u'⁹', "\\textsuperscript{9}"}, {u'û', "\\^u"}, {u'ô', "\\^o"}, {u'é', "\\'e"},
        {u'è', "\\`e"}, {u'ü', "\\\"u"}, {u'ö', "\\\"o"}, {u'ä', "\\\"a"}};
    return m;
}

QString escapeChar(QChar c) {
    switch (c.unicode()) {
        case '\\': return QStringLiteral("\\textbackslash{}");
        case '{': return QStringLiteral("\\{");
        case '}': return QStringLiteral("\\}");
        case '$': return QStringLiteral("\\$");
        case '&': return QStringLiteral("\\&");
        case '%': return QStringLiteral("\\%");
        case '#': return QStringLiteral("\\#");
        case '^': return QStringLiteral("\\textasciicircum{}");
        case '~': return QStringLiteral("\\textasciitilde{}");
        case '<': return QStringLiteral("\\textless{}");
        case '>': return QStringLiteral("\\textgreater{}");
        case '|': return QStringLiteral("\\textbar{}");
        case '_': return QStringLiteral("\\_");
        default: break;
    }
    if (c.unicode() < 128) return QString(c);
    const auto it = symbols().find(c.unicode());
    return it != symbols().end() ? QString::fromUtf8(it->second) : QStringLiteral("?");
}

QString pgfNumber(double v) {
    if (!std::isfinite(v)) return QStringLiteral("nan");
    return QString::number(v, 'g', 10);
}

QString penStyle(Qt::PenStyle s) {
    switch (s) {
        case Qt::DashLine: return QStringLiteral("dashed");
        case Qt::DotLine: return QStringLiteral("densely dotted");
        case Qt::DashDotLine: return QStringLiteral("dashdotted");
        case Qt::DashDotDotLine: return QStringLiteral("dashdotdotted");
        default: return QStringLiteral("solid");
    }
}

const char* markName(int marker) {
    static const char* m[] = {"square*", "*", "triangle*", "diamond*"};
    return marker >= 0 && marker < 4 ? m[marker] : "none";
}

}  // namespace

QString latexText(const QString& plain) {
    QString out;
    for (qsizetype i = 0; i < plain.size(); ++i) {
        const QChar c = plain[i];
        if (c == '_' && i + 1 < plain.size()) {  // "_x" or "_{...}": a subscript
            const QString sub = scriptText(plain, i, false);
            out += QStringLiteral("\\textsubscript{") + latexText(sub) + QStringLiteral("}");
            continue;
        }
        if (c == '^' && i + 1 < plain.size()) {  // "e^t", "e^−t", "x^{ab}": a superscript
            const QString sup = scriptText(plain, i, true);
            out += QStringLiteral("\\textsuperscript{") + latexText(sup) + QStringLiteral("}");
            continue;
        }
        out += escapeChar(c);
    }
    return out;
}

QString latexLiteral(const QString& name) {
    QString out;
    for (QChar c : name)
        out += escapeChar(c);
    return out;
}

QString latexLabel(const FigureCurve& c) {
    if (c.notation.isEmpty()) return latexLiteral(c.run);
    return latexLiteral(c.run + QStringLiteral(" · ")) + latexText(c.notation);
}

bool writePgfFigure(const FigureData& d, const FigureOptions& o, const QString& path,
                    QString* error) {
    const QFileInfo info(path);
    const QString stem = info.completeBaseName();
    const QDir dir = info.absoluteDir();
    // PGFPlots reads tables at \input time; a long run is drawn from every n-th record (the
    // tables keep all of them) so that TeX's memory is never the limit.
    constexpr std::size_t kDrawnPoints = 1500;
    QString bands, lines;
    const double aspect = double(o.size.height()) / std::max(1, o.size.width());
    QString colours;
    const bool walked = forEachCurve(d, [&](const CurveDraw& k) {
        const FigureCurve& c = k.curve;
        const int n = k.n;
        const QString file = QStringLiteral("%1-%2.dat").arg(stem).arg(n);
        QString t = k.band || !c.lo.empty() ? QStringLiteral("x y lo hi\n") : QStringLiteral("x y\n");
        auto v = [&](double y) { return d.logY && !(y > 0) ? QStringLiteral("nan") : pgfNumber(y); };
        forEachPoint(c, [&](double x, double y, double lo, double hi) {
            t += pgfNumber(x) + ' ' + v(y);
            if (!c.lo.empty()) t += ' ' + v(lo) + ' ' + v(hi);
            t += '\n';
        });
        if (!writeFigureText(dir.filePath(file), t, error)) return false;
        const QString colour = QStringLiteral("adecolour%1").arg(n);
        colours += QStringLiteral("\\definecolor{%1}{HTML}{%2}\n")
                       .arg(colour, c.color.name().mid(1).toUpper());
        const QString table = QStringLiteral("{./\\explorerfigdir %1}").arg(file);
        const std::size_t every = std::max<std::size_t>(1, (c.x.size() + kDrawnPoints - 1) / kDrawnPoints);
        const QString nth = every > 1 ? QStringLiteral(", each nth point=%1").arg(every) : QString();
        if (k.band) {
            bands += QStringLiteral("\\addplot [name path=lo%1, draw=none, forget plot%3] table [x=x, y=lo] %2;\n"
                                    "\\addplot [name path=hi%1, draw=none, forget plot%3] table [x=x, y=hi] %2;\n"
                                    "\\addplot [fill=%4, fill opacity=0.22, draw=none, forget plot] "
                                    "fill between [of=hi%1 and lo%1];\n")
                         .arg(n).arg(table, nth, colour);
        }
        QString style = QStringLiteral("%1, %2, line width=%3pt").arg(colour, penStyle(c.faint ? Qt::SolidLine : c.style))
                            .arg(c.faint ? 0.4 : 1.0);
        if (c.faint) style += QStringLiteral(", opacity=0.3, forget plot");
        else if (!k.legend) style += QStringLiteral(", forget plot");
        if (c.width != 1 && !c.faint) style += QStringLiteral(", line width=%1pt").arg(c.width, 0, 'f', 2);
        if (c.marker >= 0)
            style += QStringLiteral(", mark=%1, mark size=1.5pt, mark repeat=%2, mark options={solid}")
                         .arg(QString::fromLatin1(markName(c.marker)))
                         .arg(std::max<std::size_t>(1, c.x.size() / every / 10));
        else
            style += QStringLiteral(", mark=none");
        lines += QStringLiteral("\\addplot [%1%2, unbounded coords=jump, filter discard warning=false] "
                                "table [x=x, y=y] %3;\n")
                     .arg(style, nth, table);
        if (k.legend && o.legend != Qt::Alignment())
            lines += QStringLiteral("\\addlegendentry{%1}\n").arg(latexLabel(c));
        return true;
    });
    if (!walked) return false;
    if (d.bands && o.legend != Qt::Alignment())
        lines += QStringLiteral("\\addlegendimage{empty legend}\n\\addlegendentry{%1}\n")
                     .arg(latexText(d.bandNote.isEmpty() ? QObject::tr("lines: mean over seeds; bands: min–max") : d.bandNote));

    QStringList axis;
    if (o.widthCm > 0)
        axis << QStringLiteral("width=%1cm, height=%2cm").arg(o.widthCm).arg(o.widthCm * aspect, 0, 'f', 2);
    else
        axis << QStringLiteral("width=\\linewidth, height=%1\\linewidth").arg(aspect, 0, 'f', 3);
    axis << QStringLiteral("xmin=%1, xmax=%2").arg(pgfNumber(d.x0), pgfNumber(d.x1));
    axis << QStringLiteral("ymin=%1, ymax=%2").arg(pgfNumber(shownY(d, d.y0)), pgfNumber(shownY(d, d.y1)));
    if (d.logX) axis << QStringLiteral("xmode=log, log basis x=10");
    if (d.logY) axis << QStringLiteral("ymode=log, log basis y=10");
    if (!d.xTicks.empty()) {
        QStringList at, labels;
        for (const Tick& t : d.xTicks) {
            at << pgfNumber(t.value);
            labels << QStringLiteral("{%1}").arg(latexText(t.text));
        }
        axis << QStringLiteral("xtick={%1}, xticklabels={%2}").arg(at.join(','), labels.join(','))
             << QStringLiteral("xticklabel style={font=\\scriptsize, align=center, text width=1.5cm}");
    } else if (!d.logX) {
        axis << QStringLiteral("scaled x ticks=false, xticklabel style={/pgf/number format/fixed}");
    }
    axis << QStringLiteral("title={%1}").arg(latexText(d.title))
         << QStringLiteral("xlabel={%1}").arg(latexText(d.xLabel))
         << QStringLiteral("ylabel={%1}").arg(latexText(d.yLabel))
         << QStringLiteral("grid=major, grid style={black!12}")
         << QStringLiteral("legend cell align=left");
    // A paper's column is narrow: a legend beside the plot would leave it, so it goes below
    // (or above, when asked for the top).
    int entries = 0;
    for (const FigureCurve& c : d.curves)
        entries += !c.faint && c.legend;
    if (entries > 8 && (o.legend & (Qt::AlignTop | Qt::AlignBottom)))  // many runs: two columns
        axis << QStringLiteral("legend columns=2");
    if (o.legend & Qt::AlignTop)
        axis << QStringLiteral("legend style={at={(0.5,1.12)}, anchor=south, font=\\footnotesize}");
    else if (o.legend != Qt::Alignment())
        axis << QStringLiteral("legend style={at={(0.5,0)}, anchor=north, yshift=-3.4em, font=\\footnotesize}");

    QString tex;
    tex += figureHeading(QStringLiteral("%"), d.title, QStringLiteral("a PGFPlots figure"), o.metadata);
    tex += QStringLiteral(
        "% The document's preamble needs:\n"
        "%   \\usepackage{pgfplots}\n"
        "%   \\usepgfplotslibrary{fillbetween}\n"
        "%   \\pgfplotsset{compat=1.16}\n"
        "% Include it with \\input{%1.tex}; its data tables (%1-1.dat, ...) lie beside it. From\n"
        "% another folder, say where: \\def\\explorerfigdir{figures/} before \\input{figures/%1.tex}.\n"
        "% Fonts are the document's; restyle the axis' options below as you like.\n").arg(stem);
    if (d.symLogY) tex += QStringLiteral("% (The explorer draws this axis as a symmetric log; here it is linear.)\n");
    tex += QStringLiteral("\\providecommand{\\explorerfigdir}{}%\n\\begin{tikzpicture}\n");
    tex += colours;
    tex += QStringLiteral("\\begin{axis}[\n  ") + axis.join(QStringLiteral(",\n  ")) + QStringLiteral(",\n]\n");
    tex += bands + lines;
    tex += QStringLiteral("\\end{axis}\n\\end{tikzpicture}%\n");
    return writeFigureText(path, pgfTypeSize(tex, o), error);
}

}  // namespace ade::ui
