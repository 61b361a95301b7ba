// The Export… dialog of one view (charts/FigureExportDialog, issue 32 item 4: "from the GUI's
// Export dialog: title, axis labels, font size, width in cm / columns of a two-column paper"):
// an inside view's panel (the factor plane: lines) and a sweep view (two keys: a heatmap)
// exported through their own Export… with a title, axis labels, a width in cm and a type size;
// the written .tex, .py and PNG carry them. A bad value (a width under 3 cm, a type size of
// 2 pt, a file name with a folder) is refused with a message naming the field and nothing is
// written; the sweep's table as CSV beside its figure; the knobs of the charts' dialog are the
// same widgets (FigureKnobs). ADE_EXPORT_DIALOG_SHOT=FILE saves the factor plane's dialog,
// filled in, as a PNG.
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QImage>
#include <QLineEdit>
#include <QPointer>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QtTest>

#include "Configs.h"
#include "RealRuns.h"
#include "ReadFile.h"
#include "charts/FigureExportDialog.h"
#include "export/ExportDialog.h"
#include "inspect/InsideView.h"
#include "inspect/FactorPlanePanel.h"
#include "runs/TimeCursor.h"
#include "sweep/SweepForm.h"
#include "sweep/SweepHeatmap.h"
#include "sweep/SweepView.h"

using namespace ade::ui;

namespace {

QString text(const QString& path) {
    return QString::fromUtf8(adetest::readBytes(path));
}

template <typename T>
T* knob(QWidget* dlg, const char* name) {
    T* w = dlg->findChild<T*>(QLatin1String(name));
    if (!w) qFatal("no knob %s", name);
    return w;
}

// Types `value` into a spin box as a user would (its text, not its value: a text out of range
// stays in the box while the box keeps its last valid value).
void typeInto(QAbstractSpinBox* box, const QString& value) {
    auto* edit = box->findChild<QLineEdit*>();
    edit->selectAll();
    edit->setText(value);
}

// The knobs as a paper asks for them: PGFPlots, matplotlib and PNG, 12 cm wide, 9 pt type, a
// title and (where the view has axes) axis labels, into `folder` as `name`.
void setPaperKnobs(FigureExportDialog* dlg, const QString& folder, const QString& name, bool axes) {
    knob<QCheckBox>(dlg, "export.png")->setChecked(true);
    knob<QCheckBox>(dlg, "export.svg")->setChecked(false);
    knob<QCheckBox>(dlg, "export.pdf")->setChecked(false);
    knob<QCheckBox>(dlg, "export.pgf")->setChecked(true);
    knob<QCheckBox>(dlg, "export.mpl")->setChecked(true);
    auto* kind = knob<QComboBox>(dlg, "export.widthKind");
    kind->setCurrentIndex(kind->findData(-1.0));  // width in cm
    knob<QDoubleSpinBox>(dlg, "export.widthCm")->setValue(12);
    knob<QSpinBox>(dlg, "export.fontPt")->setValue(9);
    knob<QLineEdit>(dlg, "export.title")->setText(QStringLiteral("Paper title here"));
    if (axes) {
        knob<QLineEdit>(dlg, "export.xLabel")->setText(QStringLiteral("the x of the paper"));
        knob<QLineEdit>(dlg, "export.yLabel")->setText(QStringLiteral("the y of the paper"));
    }
    knob<QLineEdit>(dlg, "export.folder")->setText(folder);
    knob<QLineEdit>(dlg, "export.name")->setText(name);
}

// What a 12 cm, 9 pt figure titled so says in each format.
void checkPaperFiles(const QString& base, bool axes, bool heatmap) {
    const QString tex = text(base + QStringLiteral(".tex"));
    QVERIFY2(tex.contains(QStringLiteral("Paper title here")), qPrintable(tex.left(2000)));
    // The width: the axis' (lines) or the panels' share of it (heatmaps).
    QVERIFY2(tex.contains(heatmap ? QStringLiteral("(12.00cm-") : QStringLiteral("width=12cm")),
             qPrintable(tex.left(2000)));
    // The type: the document's font at 9 pt, its small labels in proportion.
    QVERIFY2(tex.contains(QStringLiteral("\\begin{tikzpicture}[font=\\fontsize{9}{10.8}\\selectfont]")),
             qPrintable(tex.left(2000)));
    QVERIFY(!tex.contains(QStringLiteral("\\footnotesize")));
    if (axes) {
        QVERIFY(tex.contains(QStringLiteral("xlabel={the x of the paper}")));
        QVERIFY(tex.contains(QStringLiteral("ylabel={the y of the paper}")));
    }
    const QString py = text(base + QStringLiteral(".py"));
    QVERIFY2(py.contains(QStringLiteral("TITLE = \"Paper title here\"")), qPrintable(py.left(3000)));
    QVERIFY2(py.contains(QStringLiteral("SIZE_IN = (4.724")), qPrintable(py.left(3000)));  // 12 cm
    QVERIFY(py.contains(QStringLiteral("FONT_PT = 9")));
    if (axes) {
        QVERIFY(py.contains(QStringLiteral("the x of the paper")));
        QVERIFY(py.contains(QStringLiteral("the y of the paper")));
    }
    // The PNG: 12 cm in points at a scale of 4 (about 300 dpi).
    QCOMPARE(QImage(base + QStringLiteral(".png")).width(), 4 * pointsOfCm(12));
}

// Presses Export; true when the dialog closed (exported), false when it stayed open.
bool pressExport(QPointer<FigureExportDialog> dlg) {
    knob<QPushButton>(dlg, "export.ok")->click();
    return !dlg || !dlg->isVisible();
}

}  // namespace

class TestExportDialogs : public QObject {
    Q_OBJECT
    QTemporaryDir tmp;

  private slots:
    void initTestCase() { QVERIFY(tmp.isValid()); }

    // The factor plane from the inside view's Export…: the knobs reach PGFPlots, matplotlib and
    // the PNG; bad values are refused first, with nothing written.
    void insideViewExportsWithTheKnobs() {
        RunStore store;
        addRealRun(store, QStringLiteral("gd"), "gd");
        TimeCursor cursor;
        InsideView view(&store, &cursor);
        view.resize(900, 700);
        view.show();
        view.setCurrentWidget(view.factorPlane());
        QPointer<FigureExportDialog> dlg = view.exportCurrent();
        QVERIFY(dlg);
        QVERIFY(dlg->isVisible());
        const QString folder = tmp.filePath(QStringLiteral("inside"));
        setPaperKnobs(dlg, folder, QStringLiteral("plane"), true);
        if (!qEnvironmentVariableIsEmpty("ADE_EXPORT_DIALOG_SHOT"))  // the dialog as a user sees it
            dlg->grab().save(qEnvironmentVariable("ADE_EXPORT_DIALOG_SHOT"));

        // A width of 2 cm: said in the dialog, nothing written, the dialog open.
        typeInto(knob<QDoubleSpinBox>(dlg, "export.widthCm"), QStringLiteral("2"));
        QVERIFY(!pressExport(dlg));
        QVERIFY2(dlg->message().contains(QStringLiteral("Width")) &&
                     dlg->message().contains(QStringLiteral("3 to 50")),
                 qPrintable(dlg->message()));
        QVERIFY(!QFileInfo::exists(folder));
        knob<QDoubleSpinBox>(dlg, "export.widthCm")->setValue(12);
        // A type size of 2 pt.
        typeInto(knob<QSpinBox>(dlg, "export.fontPt"), QStringLiteral("2"));
        QVERIFY(!pressExport(dlg));
        QVERIFY2(dlg->message().contains(QStringLiteral("Type size")), qPrintable(dlg->message()));
        QVERIFY(!QFileInfo::exists(folder));
        knob<QSpinBox>(dlg, "export.fontPt")->setValue(9);
        // A file name with a folder in it.
        knob<QLineEdit>(dlg, "export.name")->setText(QStringLiteral("../plane"));
        QVERIFY(!pressExport(dlg));
        QVERIFY2(dlg->message().contains(QStringLiteral("File name")), qPrintable(dlg->message()));
        QVERIFY(!QFileInfo::exists(folder));
        knob<QLineEdit>(dlg, "export.name")->setText(QStringLiteral("plane"));

        QVERIFY2(pressExport(dlg), qPrintable(dlg ? dlg->message() : QString()));
        checkPaperFiles(folder + QStringLiteral("/plane"), true, false);
    }

    // The matrices have no named axes: no label fields; the title still reaches the files.
    void matricesOfferNoAxisLabels() {
        RunStore store;
        addRealRun(store, QStringLiteral("gd"), "gd");
        TimeCursor cursor;
        InsideView view(&store, &cursor);
        view.setCurrentWidget(view.panelWidget(InsidePanel::Matrices));
        QPointer<FigureExportDialog> dlg = view.exportCurrent();
        QVERIFY(dlg);
        QVERIFY(!dlg->findChild<QLineEdit*>(QStringLiteral("export.xLabel")));
        const QString folder = tmp.filePath(QStringLiteral("matrices"));
        setPaperKnobs(dlg, folder, QStringLiteral("matrices"), false);
        QVERIFY2(pressExport(dlg), qPrintable(dlg ? dlg->message() : QString()));
        checkPaperFiles(folder + QStringLiteral("/matrices"), false, true);
    }

    // A sweep of two keys (the heatmap) from the sweep view's Export…: the knobs reach its
    // files, and the table as CSV beside them.
    void sweepViewExportsWithTheKnobs() {
        SweepView view;
        view.resize(1200, 900);
        view.setFormConfig(adetest::tinyA(30, {{"regularizer", "l2"}}));
        view.form()->setAxis(0, "lr", SweepForm::List, QStringLiteral("0.02, 0.05"));
        view.form()->setAxis(1, "lambda", SweepForm::List, QStringLiteral("0, 0.1"));
        view.findChild<QSpinBox*>(QStringLiteral("sweepSeeds"))->setValue(1);
        QSignalSpy done(&view, &SweepView::finished);
        QVERIFY(view.start());
        QVERIFY(done.wait(120000));
        QCOMPARE(view.currentChart(), static_cast<SweepChart*>(view.heatmap()));
        QPointer<FigureExportDialog> dlg = view.exportDialog();
        QVERIFY(dlg);
        const QString folder = tmp.filePath(QStringLiteral("sweep"));
        setPaperKnobs(dlg, folder, QStringLiteral("lr-lambda"), true);
        // No format and no table: refused.
        for (const char* f : {"export.png", "export.pgf", "export.mpl"})
            knob<QCheckBox>(dlg, f)->setChecked(false);
        QVERIFY(!pressExport(dlg));
        QVERIFY2(dlg->message().contains(QStringLiteral("format")), qPrintable(dlg->message()));
        QVERIFY(!QFileInfo::exists(folder));
        for (const char* f : {"export.png", "export.pgf", "export.mpl", "export.csv"})
            knob<QCheckBox>(dlg, f)->setChecked(true);
        QVERIFY2(pressExport(dlg), qPrintable(dlg ? dlg->message() : QString()));
        checkPaperFiles(folder + QStringLiteral("/lr-lambda"), true, true);
        const QStringList rows = text(folder + QStringLiteral("/lr-lambda.csv")).trimmed().split('\n');
        QCOMPARE(rows.size(), 5);  // the header and four configs
        QVERIFY(rows.front().startsWith(QStringLiteral("lr,lambda,")));
    }

    // The charts' dialog is made of the same knobs (the object names its test and users' scripts
    // know), and refuses a bad width in the same words.
    void chartsDialogSharesTheKnobs() {
        ExportDialog dlg(tmp.path(), {}, true, false, 0);
        for (const char* name : {"export.png", "export.pgf", "export.mpl", "export.widthKind",
                                 "export.widthCm", "export.fontPt", "export.title", "export.xLabel",
                                 "export.yLabel", "export.legend"})
            QVERIFY2(dlg.findChild<QWidget*>(QLatin1String(name)), name);
        knob<QLineEdit>(&dlg, "export.title")->setText(QStringLiteral("  Loss  "));
        QCOMPARE(dlg.options().title, QStringLiteral("Loss"));
        QVERIFY(dlg.options().logY);
    }
};

QTEST_MAIN(TestExportDialogs)
#include "tst_export_dialogs.moc"
