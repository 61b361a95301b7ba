// Figure export (PNG/SVG/PDF), session <-> store round trips, and the CLI's `figure` command.
#include <QCategoryAxis>
#include <QChart>
#include <QLogValueAxis>
#include <QRegularExpression>
#include <QValueAxis>
#include <QtTest>
#include <QtWidgets>

#include "export/DataExport.h"
#include "charts/FigureRenderer.h"
#include "Process.h"
#include "ReadFile.h"
#include "RealRuns.h"
#include "runs/RunStore.h"
#include "runs/SessionBridge.h"
#include "io/Npy.h"
#include "output/Session.h"
#include "training/Trainer.h"

using namespace ade;
using namespace ade::ui;

namespace {

using adetest::readBytes;

// The CLI's exit code (-1: crashed or timed out); its stderr in `err`.
int cli(const QStringList& args, QString* err = nullptr) {
    const testproc::ProcessResult r = testproc::runCli(args);
    if (err) *err = r.err;
    return r.code;
}

}  // namespace

class TestExport : public QObject {
    Q_OBJECT
    QTemporaryDir tmp;
    RunStore store;
    ChartSpec loss;

  private slots:
    void initTestCase() {
        addRealRun(store, "gd", "gd");
        addRealRun(store, "sgd", "sgd");
        loss = chartSpec(std::string("loss"));
        QCOMPARE(loss.id, QString("loss"));
    }

    void pngIsNotBlankAndCarriesMetadata() {
        FigureOptions o;
        o.size = QSize(800, 500);
        o.scale = 1.5;
        o.metadata = "seed 1; command attention-explorer-cli run ...";
        const QString path = tmp.filePath("loss.png");
        QString error;
        QVERIFY2(renderFigure(loss, store, o, FigureFormat::Png, path, &error), qPrintable(error));
        QImage img(path);
        QCOMPARE(img.size(), QSize(1200, 750));
        QSet<QRgb> colours;
        int nonWhite = 0;
        for (int y = 0; y < img.height(); y += 3)
            for (int x = 0; x < img.width(); x += 3) {
                const QRgb c = img.pixel(x, y);
                colours.insert(c);
                nonWhite += c != qRgb(255, 255, 255);
            }
        QVERIFY(colours.size() > 20);
        QVERIFY(nonWhite > 2000);
        QVERIFY(img.text("Description").contains("seed 1"));
    }

    void svgIsValidAndHoldsEverySeries() {
        FigureOptions o;
        o.title = "My loss";
        o.yLabel = "loss (nats)";
        o.metadata = "reproduce: attention-explorer-cli figure";
        const QString path = tmp.filePath("loss.svg");
        QString error;
        QVERIFY2(renderFigure(loss, store, o, FigureFormat::Svg, path, &error), qPrintable(error));
        QXmlStreamReader xml(readBytes(path));
        int paths = 0, polylines = 0;
        QString text;
        bool description = false;
        while (!xml.atEnd()) {
            xml.readNext();
            if (xml.isStartElement()) {
                if (xml.name() == QLatin1String("path")) ++paths;
                if (xml.name() == QLatin1String("polyline")) ++polylines;
                if (xml.name() == QLatin1String("desc"))
                    description = xml.readElementText().contains("reproduce");
            }
            if (xml.isCharacters()) text += xml.text();
        }
        QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
        QVERIFY(description);
        // 2 runs x 3 loss columns = 6 curves, drawn as polylines or paths.
        QVERIFY(paths + polylines >= 6);
        QVERIFY(text.contains("My loss"));
        QVERIFY(text.contains("loss (nats)"));
        // Legends read as phrases (the metric descriptions), never column names.
        // (The SVG splits a text where the font changes, e.g. at θ: compare without spaces.)
        QString compact = text;
        compact.remove(QRegularExpression(QStringLiteral("\\s")));
        QVERIFY2(compact.contains(QStringLiteral("gd·excessriskE(θ)(n→∞)")), qPrintable(compact));
        QVERIFY(!text.contains("excess_risk"));
    }

    void pdfHasOnePage() {
        FigureOptions o;
        o.style = FigureStyle::Screen;
        const QString path = tmp.filePath("loss.pdf");
        QString error;
        QVERIFY2(renderFigure(loss, store, o, FigureFormat::Pdf, path, &error), qPrintable(error));
        const QByteArray pdf = readBytes(path);
        QVERIFY(pdf.startsWith("%PDF-"));
        QVERIFY(pdf.trimmed().endsWith("%%EOF"));
        QCOMPARE(
            pdf.count("/Type /Page\n") + pdf.count("/Type /Page\r") + pdf.count("/Type /Page "), 1);
        QVERIFY(pdf.size() > 5000);
    }

    void unwritablePathLeavesNothing() {
        QString error;
        QVERIFY(!renderFigure(loss, store, FigureOptions(), FigureFormat::Png, "/proc/nope/x.png",
                              &error));
        QVERIFY(error.contains("/proc/nope/x.png"));
        // A failed export into a read-only folder leaves no partial file behind.
        const QString ro = tmp.filePath("ro");
        QDir().mkpath(ro);
        QFile::setPermissions(ro, QFile::ReadOwner | QFile::ExeOwner);
        if (::geteuid() != 0) {  // root ignores permissions
            QVERIFY(!renderFigure(loss, store, FigureOptions(), FigureFormat::Svg, ro + "/x.svg",
                                  &error));
            QVERIFY(QDir(ro).entryList(QDir::Files).isEmpty());
        }
    }

    void allChartsAtOnce() {
        QString error;
        const QStringList files =
            renderAllFigures(store, FigureOptions(), {FigureFormat::Png, FigureFormat::Svg},
                             tmp.filePath("all"), &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY(files.size() >= 6);  // loss, norms, manifold (+ other) in two formats
        QVERIFY(files.contains(tmp.filePath("all/norms.svg")));
    }

    void storeSessionRoundTrip() {
        const Session s = sessionFromStore(store, {{"log_y", true}});
        RunStore other;
        addSessionToStore(sessionFromText(sessionToText(s)).session.value(), other);
        QCOMPARE(other.runs().size(), store.runs().size());
        for (std::size_t i = 0; i < store.runs().size(); ++i) {
            QCOMPARE(other.runs()[i]->name, store.runs()[i]->name);
            QCOMPARE(other.runs()[i]->colorIndex, store.runs()[i]->colorIndex);
            QVERIFY(other.runs()[i]->data == store.runs()[i]->data);
            QVERIFY(other.runs()[i]->finalParams.has_value());
        }
    }

    // An export is the chart as it is on screen: curves hidden by the legend stay hidden, a
    // zoomed range is kept, and a log axis over a decade or two still carries several labels.
    void exportKeepsWhatTheScreenShows() {
        FigureOptions o;
        auto seriesNames = [&](const FigureOptions& fo) {
            QStringList names;
            auto chart = buildFigureChart(loss, store, fo);
            for (QAbstractSeries* s : chart->series())
                names << s->name();
            return names;
        };
        const QStringList all = seriesNames(o);
        QVERIFY(!all.filter("train loss").isEmpty());
        o.hidden = {QStringLiteral("m:train_loss")};
        QVERIFY(seriesNames(o).filter("train loss").isEmpty());
        QCOMPARE(seriesNames(o).size(), all.size() - 2);  // two runs
        o.hidden = {QStringLiteral("r:") + QString::number(store.runs()[0]->id)};
        for (const QString& name : seriesNames(o))
            QVERIFY(!name.startsWith(store.runs()[0]->name + QStringLiteral(" ·")));
        QCOMPARE(seriesNames(o).size(), all.size() / 2);
        o.hidden.clear();
        o.xMin = 5;
        o.xMax = 15;
        o.yMin = 0.2;
        o.yMax = 0.5;
        auto chart = buildFigureChart(loss, store, o);
        // The axes are in their own units (log10 on a log axis), labelled at round values.
        auto* ly = qobject_cast<QCategoryAxis*>(chart->axes(Qt::Vertical).value(0));
        QVERIFY(ly);
        QVERIFY(std::abs(ly->min() - std::log10(0.2)) < 1e-9);
        QVERIFY(std::abs(ly->max() - std::log10(0.5)) < 1e-9);
        // Less than half a decade: at least three labels inside the range (0.2, 0.3, 0.4, 0.5).
        QVERIFY2(ly->categoriesLabels().size() >= 3, qPrintable(ly->categoriesLabels().join(' ')));
        auto* vx = qobject_cast<QCategoryAxis*>(chart->axes(Qt::Horizontal).value(0));
        QVERIFY(vx && vx->min() == 5 && vx->max() == 15);
    }

    void csvExportRoundTrip() {
        QString error;
        std::vector<const RunRecord*> runs;
        for (const auto& r : store.runs())
            runs.push_back(r.get());
        const QStringList files = exportRunsCsv(runs, tmp.filePath("csv"), {}, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(files.size(), 2);
        QFile f(files[0]);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QStringList lines = QString::fromUtf8(f.readAll()).split('\n', Qt::SkipEmptyParts);
        // Comment lines first: the config, the seed and the command that reproduces the run.
        QVERIFY(lines[0].startsWith("# run gd, seed 1"));
        QVERIFY(lines[1].startsWith("# config {"));
        QVERIFY(lines[2].contains("attention-explorer-cli run --config gd.json"));
        while (lines.first().startsWith('#'))
            lines.removeFirst();
        const RunRecord& r = *store.runs()[0];
        QCOMPARE(lines[0].split(','), [&] {
            QStringList c;
            for (const auto& n : r.columns)
                c << QString::fromStdString(n);
            return c;
        }());
        QCOMPARE(lines.size() - 1, static_cast<int>(r.size()));
        for (int i = 1; i < lines.size(); ++i) {
            const QStringList cells = lines[i].split(',');
            for (int c = 0; c < cells.size(); ++c)
                QCOMPARE(cells[c].toDouble(), r.data[c][i - 1]);  // exact: shortest round-trip text
        }
        // Visible x-range only.
        const QStringList part =
            exportRunsCsv(runs, tmp.filePath("csv-range"), XRange{10, 20}, &error);
        QFile g(part[0]);
        QVERIFY(g.open(QIODevice::ReadOnly));
        const QString body = QString::fromUtf8(g.readAll());
        int comments = 0;
        for (const QString& line : body.split('\n'))
            comments += line.startsWith('#');
        // run, config, reproduce, "columns:" and one line per column describing it.
        QCOMPARE(comments, 4 + static_cast<int>(r.columns.size()));
        QVERIFY(body.contains("# norm_A: ‖A‖_F [Frobenius norm]. Frobenius norm of"));
        const int dataLines = body.count('\n') - comments - 1;  // comments + header
        QCOMPARE(dataLines, 11);
    }

    void jsonAndNpyExports() {
        QString error;
        std::vector<const RunRecord*> runs = {store.runs()[1].get()};
        QVERIFY(exportRunsJson(runs, tmp.filePath("runs.json"), {}, &error));
        const auto doc = QJsonDocument::fromJson(readBytes(tmp.filePath("runs.json"))).object();
        QCOMPARE(doc["runs"].toArray().size(), 1);
        const auto run = doc["runs"].toArray()[0].toObject();
        QCOMPARE(run["name"].toString(), QString("sgd"));
        QCOMPARE(run["rows"].toArray().size(), static_cast<int>(store.runs()[1]->size()));
        QVERIFY(run["command"].toString().contains("attention-explorer-cli run"));
        const QStringList npy = exportParamsNpy(*store.runs()[1], tmp.filePath("npy"), &error);
        QCOMPARE(npy.size(), 2);
        std::string err;
        const auto B = ade::decodeNpy(readBytes(tmp.filePath("npy/B.npy")).toStdString(), &err);
        QVERIFY(B && B->values[1] == (*store.runs()[1]->finalParams)[1](0, 1));  // row-major
        QVERIFY(!exportRunsJson(runs, "/proc/nope/x.json", {}, &error));
        QVERIFY(error.contains("/proc/nope"));
    }

    void cliFigureMatchesSessionRendering() {
        const QString a = tmp.filePath("cli-a"), b = tmp.filePath("cli-b");
        QString err;
        QCOMPARE(cli({"figure", "--preset", "a-same-start", "--out", a, "--set", "iterations=30",
                      "--set", "data.n=16", "--set", "data.prompts=4", "--format", "png,svg",
                      "--size", "900x600"},
                     &err),
                 0);
        QVERIFY2(QFileInfo::exists(a + "/loss.png"), qPrintable(err));
        QVERIFY(QFileInfo::exists(a + "/session.json"));
        // Rendering the saved session again gives the same picture, pixel for pixel.
        QCOMPARE(cli({"figure", "--session", a + "/session.json", "--out", b, "--format", "png",
                      "--size", "900x600"},
                     &err),
                 0);
        QCOMPARE(QImage(a + "/loss.png"), QImage(b + "/loss.png"));
        QCOMPARE(QImage(a + "/manifold.png"), QImage(b + "/manifold.png"));
        QCOMPARE(cli({"figure", "--session", a + "/nope.json", "--out", b}, &err), 2);
        QVERIFY(err.contains("cannot open"));
        QCOMPARE(
            cli({"figure", "--session", a + "/session.json", "--out", b, "--format", "gif"}, &err),
            2);
        QVERIFY(err.contains("'gif'"));
        QCOMPARE(cli({"figure", "--session", a + "/session.json", "--out", "/proc/nope"}, &err), 4);
    }

    void cliFigureWritesTheInsidePanels() {
        const QString a = tmp.filePath("panels-a"), b = tmp.filePath("panels-b");
        QString err;
        QCOMPARE(cli({"figure", "--preset", "b-regularizers", "--out", a, "--set", "iterations=20",
                      "--set", "data.n=16", "--set", "data.test_n=16", "--panels",
                      "matrices,attention,factor-plane",
                      "--format", "png,svg,pdf", "--size", "900x600"},
                     &err),
                 0);
        for (const char* panel : {"matrices", "attention", "factor-plane"}) {
            const QString png = a + "/" + panel + ".png";
            QVERIFY2(QFileInfo::exists(png), qPrintable(err));
            QCOMPARE(QImage(png).size(), QSize(1800, 1200));  // 900x600 at scale 2
            QVERIFY(readBytes(a + "/" + panel + ".svg").contains("<svg"));
            QVERIFY(readBytes(a + "/" + panel + ".pdf").startsWith("%PDF"));
        }
        QVERIFY(!QFileInfo::exists(a + "/loss.png"));  // the panels instead of the charts
        // The same session at an earlier iteration and for another run: another picture.
        QCOMPARE(cli({"figure", "--session", a + "/session.json", "--out", b, "--panels",
                      "factor-plane", "--format", "png", "--size", "900x600", "--iteration",
                      "5"},
                     &err),
                 0);
        QVERIFY(QImage(b + "/factor-plane.png") != QImage(a + "/factor-plane.png"));
        QCOMPARE(cli({"figure", "--session", a + "/session.json", "--out", b, "--panels",
                      "heatmaps"},
                     &err),
                 2);
        QVERIFY(err.contains("'heatmaps'"));
        QCOMPARE(cli({"figure", "--session", a + "/session.json", "--out", b, "--panels",
                      "matrices", "--run", "no-such-run"},
                     &err),
                 2);
        QCOMPARE(cli({"figure", "--session", a + "/session.json", "--out", b, "--iteration", "3"},
                     &err),
                 2);
    }

    // `animate`: a session's run over its snapshots, headless: PNG frames always (one per
    // snapshot), an MP4 when ffmpeg is installed; bad input is refused before any work.
    void cliAnimate() {
        const QString run = tmp.filePath("anim-run");
        QString err;
        QCOMPARE(cli({"run", "--preset", "a-same-start", "--out", run, "--set", "iterations=40",
                      "--set", "data.n=16", "--set", "data.prompts=4", "--set", "snapshots=6", "--seeds", "1", "--quiet"},
                     &err),
                 0);
        const QString session = run + "/session.json";
        const auto read = ade::readSessionFile(session.toStdString());
        QVERIFY2(read.session, read.error.c_str());
        const std::size_t snaps = read.session->runs.front().snapshots.size();
        QVERIFY(snaps >= 2 && snaps <= 6);
        const QString frames = tmp.filePath("anim-frames");
        QCOMPARE(cli({"animate", "--session", session, "--out", frames, "--size", "480x320"}, &err),
                 0);
        const QStringList pngs = QDir(frames).entryList({"frame_*.png"}, QDir::Files);
        QCOMPARE(static_cast<std::size_t>(pngs.size()), snaps);
        QCOMPARE(QImage(QDir(frames).filePath(pngs.front())).size(), QSize(480, 320));
        QCOMPARE(cli({"animate", "--session", session, "--out", frames, "--run", "nope"}, &err), 2);
        QVERIFY(err.contains("no run 'nope'"));
        QCOMPARE(cli({"animate", "--session", session, "--out", frames, "--fps", "0"}, &err), 2);
        QCOMPARE(cli({"animate", "--preset", "a-same-start", "--out", frames}, &err), 2);
        if (QStandardPaths::findExecutable("ffmpeg").isEmpty()) return;
        const QString film = tmp.filePath("anim.gif");
        QCOMPARE(cli({"animate", "--session", session, "--out", film, "--fps", "4"}, &err), 0);
        QVERIFY2(QFileInfo(film).size() > 0, qPrintable(err));
        QCOMPARE(QDir(tmp.filePath("anim_frames")).entryList({"frame_*.png"}, QDir::Files).size(),
                 static_cast<qsizetype>(snaps));
        // Frames of the inside views: the charts and the factor plane share each frame.
        const QString both = tmp.filePath("anim-both");
        QCOMPARE(cli({"animate", "--session", session, "--out", both, "--size", "640x320",
                      "--panels", "charts,factor-plane"},
                     &err),
                 0);
        QCOMPARE(QDir(both).entryList({"frame_*.png"}, QDir::Files).size(),
                 static_cast<qsizetype>(snaps));
        QCOMPARE(cli({"animate", "--session", session, "--out", both, "--panels", "landscape"},
                     &err),
                 2);
    }
};

QTEST_MAIN(TestExport)
#include "tst_export.moc"
