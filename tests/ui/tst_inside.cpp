// The inside views in the window: the Matrices tab shows the focused run's parameters (hover
// text: entry and value), the attention's tokens sort by a feature, the factor plane's marker
// follows the time cursor, a panel exports as PNG, SVG and PDF.
#include <QCheckBox>
#include <QComboBox>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

#include "Configs.h"
#include "window/MainWindow.h"
#include "ReadFile.h"
#include "runs/RunController.h"
#include "runs/RunStore.h"
#include "TestWindow.h"
#include "runs/TimeCursor.h"
#include "inspect/AnimationDialog.h"
#include "inspect/AttentionPanel.h"
#include "base/ColorMaps.h"
#include "inspect/FactorPlanePanel.h"
#include "inspect/InsideView.h"
#include "inspect/MatrixPanel.h"

using namespace ade::ui;

namespace {

// One finished tiny Experiment A run in a shown window, the inside view in front.
std::unique_ptr<MainWindow> windowWithARun(long iterations) {
    auto w = adetest::makeWindow();
    w->resize(1200, 800);
    QSignalSpy done(w->controller(), &RunController::allFinished);
    w->controller()->start("gd", adetest::tinyA(iterations));
    if (!done.wait(kRunWaitMs)) qFatal("the run did not finish");
    w->controller()->drain();
    w->findChild<QTabWidget*>(QStringLiteral("tabs"))->setCurrentWidget(w->insideView());
    return w;
}

}  // namespace

class TestInside : public QObject {
    Q_OBJECT

  private slots:
    void matricesShowTheRunsParameters() {
        auto w = windowWithARun(20);
        InsideView* v = w->insideView();
        v->setCurrentWidget(v->matrices());
        QTRY_VERIFY_WITH_TIMEOUT(!v->matrices()->scene().views.empty(), kRunWaitMs);
        const RunRecord* r = w->store()->runs().front().get();
        QVERIFY(r->finalParams);
        const auto& views = v->matrices()->scene().views;
        QCOMPARE(QString::fromStdString(views[0].title), QString("A"));
        QVERIFY(views[0].values == (*r->finalParams)[0]);
        QVERIFY(views[1].values == (*r->finalParams)[1]);
        QVERIFY(v->matrices()->scene().heading.contains(r->name));
        // Hover: the first cell of A shows its entry and value.
        v->matrices()->repaint();
        QVERIFY(!v->matrices()->hits().empty());
        const HeatmapHit& hit = v->matrices()->hits().front();
        const double cellW = hit.rect.width() / static_cast<double>(views[0].values.cols());
        const double cellH = hit.rect.height() / static_cast<double>(views[0].values.rows());
        const QString text =
            v->matrices()->toolTipAt(hit.rect.topLeft() + QPointF(cellW / 2, cellH / 2));
        QVERIFY2(text.startsWith("A, entry (1, 1) = " + formatValue(views[0].values(0, 0))),
                 qPrintable(text));
        QVERIFY(v->matrices()->toolTipAt(QPointF(1, 1)).isEmpty());
        QVERIFY(v->frameStats().toJson()["refresh_ms"]["count"].get<int>() > 0);
    }

    void attentionSortsTokensByAFeature() {
        auto w = windowWithARun(10);
        InsideView* v = w->insideView();
        v->setCurrentWidget(v->attention());
        QTRY_VERIFY_WITH_TIMEOUT(v->attention()->scene().view.has_value(), kRunWaitMs);
        const auto& view = *v->attention()->scene().view;
        for (Eigen::Index i = 0; i < view.weights.rows(); ++i)
            QVERIFY(std::abs(view.weights.row(i).sum() - 1.0) < 1e-12);
        QComboBox* sort = v->attention()->sortBox();
        QVERIFY(!sort->isHidden());
        const int norm = sort->findText(QString::fromUtf8("‖x‖"));
        QVERIFY(norm > 0);
        sort->setCurrentIndex(norm);
        QCOMPARE(v->attention()->scene().sortFeature, norm - 1);
        const std::vector<int> order = attentionOrder(v->attention()->scene());
        const Eigen::VectorXd& key = view.features[norm - 1];
        for (std::size_t k = 1; k < order.size(); ++k) QVERIFY(key(order[k - 1]) <= key(order[k]));
        // Hover names the original tokens and the weight.
        v->attention()->repaint();
        QVERIFY(!v->attention()->hits().empty());
        const QRectF r = v->attention()->hits().front().rect;
        const double cell = r.width() / static_cast<double>(order.size());
        const QString text = v->attention()->toolTipAt(r.topLeft() + QPointF(cell / 2, cell / 2));
        QVERIFY2(text.contains(QString("query token i = %1 ").arg(order[0] + 1)), qPrintable(text));
        QVERIFY(text.contains(formatValue(view.weights(order[0], order[0]))));
    }

    // Experiment C's network has no attention: the panel says so and shows no empty sort box.
    void noAttentionNoSortBox() {
        auto w = adetest::makeWindow();
        w->resize(1200, 800);
        QSignalSpy done(w->controller(), &RunController::allFinished);
        w->controller()->start("lora", adetest::configFrom({{"experiment", "c"}, {"iterations", "10"},
                                                            {"data.n", "16"}, {"data.test_n", "8"}}));
        QVERIFY(done.wait(kRunWaitMs));
        w->controller()->drain();
        w->findChild<QTabWidget*>(QStringLiteral("tabs"))->setCurrentWidget(w->insideView());
        InsideView* v = w->insideView();
        v->setCurrentWidget(v->attention());
        QTest::qWait(600);  // the tab refreshes at most 4 times a second
        QVERIFY(!v->attention()->scene().view.has_value());
        QVERIFY(v->attention()->sortBox()->isHidden());
    }

    void factorPlaneMarkerFollowsTheTimeCursor() {
        auto w = windowWithARun(20);
        InsideView* v = w->insideView();
        v->setCurrentWidget(v->factorPlane());
        QTRY_VERIFY_WITH_TIMEOUT(!v->factorPlane()->scene().runs.empty(), kRunWaitMs);
        const RunRecord* r = w->store()->runs().front().get();
        auto marked = [&] {
            const PlaneTrajectory& t = v->factorPlane()->scene().runs.front();
            return t.marker < 0 ? -1L : t.iterations[t.marker];
        };
        QCOMPARE(marked(), r->lastIteration());
        w->timeCursor()->setIteration(7);
        QTRY_COMPARE_WITH_TIMEOUT(marked(), 7L, kRunWaitMs);
        const PlaneTrajectory& t = v->factorPlane()->scene().runs.front();
        QCOMPARE(t.x[t.marker], r->data[r->column("norm_L")][t.marker]);
        QCOMPARE(t.y[t.marker], r->data[r->column("norm_R")][t.marker]);
        w->timeCursor()->setLive();
        QTRY_COMPARE_WITH_TIMEOUT(marked(), r->lastIteration(), kRunWaitMs);
        // Hover: the recorded point under the pointer names its run and iteration.
        const FactorPlanePanel* plane = v->factorPlane();
        const PlaneTrajectory& u = plane->scene().runs.front();
        const QString tip = plane->toolTipAt(plane->frame().map(u.x[0], u.y[0]).toPoint());
        QVERIFY2(tip.startsWith(r->name + QStringLiteral(", iteration 0:")), qPrintable(tip));
    }

    void panelsExportAsPngSvgPdf() {
        auto w = windowWithARun(10);
        QTemporaryDir tmp;
        InsideView* v = w->insideView();
        QString error;
        for (const InsidePanelInfo& info : insidePanels()) {
            const InsidePanel panel = info.panel;
            const QString base = tmp.filePath(insidePanelId(panel));
            QVERIFY2(v->exportPanel(panel, FigureFormat::Png, base + ".png", QSize(800, 600),
                                    &error),
                     qPrintable(error));
            QCOMPARE(QImage(base + ".png").size(), QSize(1600, 1200));
            QVERIFY(v->exportPanel(panel, FigureFormat::Svg, base + ".svg", QSize(800, 600),
                                   &error));
            QVERIFY(adetest::readBytes(base + ".svg").contains("<svg"));
            QVERIFY(v->exportPanel(panel, FigureFormat::Pdf, base + ".pdf", QSize(800, 600),
                                   &error));
            QVERIFY(adetest::readBytes(base + ".pdf").startsWith("%PDF"));
        }
        QVERIFY(!v->exportPanel(InsidePanel::Matrices, FigureFormat::Png, "/proc/nope/m.png",
                                QSize(800, 600), &error));
    }

    // The panels' table (inspect/InsideFigure.h): a row per panel, ids that parse back, and the
    // animation dialog's boxes made from it.
    void panelsComeFromOneTable() {
        QCOMPARE(insidePanels().size(), std::size_t(3));
        QStringList ids;
        for (const InsidePanelInfo& info : insidePanels()) {
            QCOMPARE(insidePanelInfo(info.panel).id, info.id);
            InsidePanel back = InsidePanel::Matrices;
            QVERIFY(parseInsidePanel(QLatin1String(info.id), &back));
            QCOMPARE(back, info.panel);
            QVERIFY(!ids.contains(QLatin1String(info.id)));
            ids << QLatin1String(info.id);
        }
        QCOMPARE(ids, QStringList({"matrices", "attention", "factor-plane"}));
        InsidePanel none;
        QVERIFY(!parseInsidePanel(QStringLiteral("landscape"), &none));
        AnimationDialog dlg(QStringLiteral("run"), 5);
        for (const InsidePanelInfo& info : insidePanels()) {
            auto* box = dlg.findChild<QCheckBox*>(QLatin1String(info.boxName));
            QVERIFY2(box, info.boxName);
            QVERIFY(!box->isChecked());
            box->setChecked(true);
        }
        QCOMPARE(dlg.panels().inside.size(), insidePanels().size());
        QCOMPARE(dlg.panels().inside.back(), InsidePanel::FactorPlane);
        // The inside view's tabs: the table's widgets, in its order, named and explained by it
        // (the window adds the loss landscape after them).
        auto w = adetest::makeWindow();
        InsideView* v = w->insideView();
        for (int i = 0; i < static_cast<int>(insidePanels().size()); ++i) {
            const InsidePanelInfo& info = insidePanels()[static_cast<std::size_t>(i)];
            QCOMPARE(v->widget(i), v->panelWidget(info.panel));
            QCOMPARE(v->tabText(i), QString(info.name).remove(QLatin1Char('&')));
            QCOMPARE(v->tabToolTip(i), info.tip);
            v->setCurrentIndex(i);
            QCOMPARE(v->currentPanel(), std::optional<InsidePanel>(info.panel));
        }
        QVERIFY(qobject_cast<MatrixPanel*>(v->panelWidget(InsidePanel::Matrices)) == v->matrices());
        QCOMPARE(v->count(), static_cast<int>(insidePanels().size()) + 1);
    }
};

QTEST_MAIN(TestInside)
#include "tst_inside.moc"
