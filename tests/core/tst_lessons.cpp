// Lessons (core/plan/Lesson.h): the file format, each error message with its step, the steps'
// plans checked against presets, charts and runs, the library, and every shipped lesson.
#include <QTemporaryDir>
#include <QtTest>

#include <fstream>
#include <set>

#include "plan/Lesson.h"

using namespace ade;

namespace {

const char* const kGood = R"({
  "name": "demo", "title": "A demo", "description": "two steps",
  "steps": [
    {"title": "First", "caption": "Look at the loss.", "preset": "a-spectral-vs-random",
     "set": {"iterations": 300, "data.n": 64, "init_scale": 0.2},
     "highlight": {"chart": "manifold", "run": "sgd-random"},
     "pause": {"iteration": 50}},
    {"title": "Second", "caption": "An inline plan.",
     "config": {"config": {"experiment": "a", "iterations": 40, "data": {"n": 16}},
                "runs": [{"name": "gd", "config": {"optimizer": "gd"}},
                         {"name": "adam", "config": {"optimizer": "adam"}}],
                "claims": [{"id": "adam-lower", "text": "Adam ends lower.", "paper": "A",
                            "check": "ratio", "metric": "train_loss", "run": "adam",
                            "other": "gd", "max": 1}]},
     "highlight": {"run": "adam", "claim": "adam-lower"},
     "pause": {"claim": "adam-lower"}}
  ]})";

PresetLibrary shipped() {
    return PresetLibrary(PresetLibrary::defaultDirectories(""));
}

// A lesson of one step made of `stepBody` (the JSON members of the step after title/caption).
std::string oneStep(const std::string& stepBody) {
    return R"({"title": "T", "steps": [{"title": "S", "caption": "C", )" + stepBody + "}]}";
}

}  // namespace

class TestLessons : public QObject {
    Q_OBJECT
  private slots:
    void parsesAGoodFile() {
        LessonError e;
        const auto lesson = parseLesson(kGood, "file-stem", &e);
        QVERIFY2(lesson, e.message.c_str());
        QCOMPARE(lesson->name, std::string("demo"));
        QCOMPARE(lesson->title, std::string("A demo"));
        QCOMPARE(lesson->description, std::string("two steps"));
        QCOMPARE(lesson->steps.size(), std::size_t(2));
        const LessonStep& s = lesson->steps[0];
        QCOMPARE(s.preset, std::string("a-spectral-vs-random"));
        QCOMPARE(s.set, (std::vector<std::string>{"data.n=64", "init_scale=0.2", "iterations=300"}));
        QCOMPARE(s.highlightChart, std::string("manifold"));
        QCOMPARE(s.highlightRun, std::string("sgd-random"));
        QCOMPARE(s.pauseIteration, 50L);
        QVERIFY(s.pauseClaim.empty());
        QVERIFY(lesson->steps[1].preset.empty());
        QVERIFY(lesson->steps[1].config.is_object());
        QCOMPARE(lesson->steps[1].pauseIteration, -1L);
        QCOMPARE(lesson->steps[1].highlightClaim, std::string("adam-lower"));
        QCOMPARE(lesson->steps[1].pauseClaim, std::string("adam-lower"));
        // Without "name", the file's stem.
        const auto unnamed = parseLesson(oneStep(R"("preset": "a-ablation")"), "stem", &e);
        QVERIFY(unnamed);
        QCOMPARE(unnamed->name, std::string("stem"));
    }

    void stepPlansApplyTheOverridesAndInlinePlans() {
        const auto lesson = parseLesson(kGood, "demo", nullptr);
        QVERIFY(lesson);
        const PresetLibrary lib = shipped();
        LessonError e;
        const auto first = stepPlan(*lesson, 0, lib, &e);
        QVERIFY2(first, e.message.c_str());
        QCOMPARE(first->runs.size(), std::size_t(3));  // Algorithm 1 twice, SGD
        for (const auto& r : first->runs) {
            QCOMPARE(r.config.getInt("iterations"), std::int64_t(300));
            QCOMPARE(r.config.getInt("data.n"), std::int64_t(64));
        }
        const auto second = stepPlan(*lesson, 1, lib, &e);
        QVERIFY2(second, e.message.c_str());
        QCOMPARE(second->runs.size(), std::size_t(2));
        QCOMPARE(second->runs[1].name, std::string("adam"));
        QCOMPARE(second->runs[1].config.getString("optimizer"), std::string("adam"));
        QCOMPARE(second->runs[0].config.getInt("data.n"), std::int64_t(16));
        QCOMPARE(second->claims.size(), std::size_t(1));
        QVERIFY(!checkLesson(*lesson, lib));
        QVERIFY(!stepPlan(*lesson, 2, lib, &e));
        QVERIFY2(e.message.find("no step 3 (it has 2)") != std::string::npos, e.message.c_str());
    }

    // The file's shape: each mistake a teacher may make, with where it is.
    void shapeErrorsNameTheStep_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("expect");
        auto row = [](const char* name, const std::string& text, const char* expect) {
            QTest::newRow(name) << QString::fromStdString(text) << QString::fromUtf8(expect);
        };
        row("malformed JSON", R"({"title": "T", "steps": [)", "lesson.json: malformed JSON: parse error");
        row("not an object", "[1, 2]", "lesson.json: expected a JSON object at the top level");
        row("unknown top-level key", R"({"title": "T", "stepz": []})",
            "unknown top-level key \"stepz\"; a lesson has: name, title, description, steps");
        row("no title", R"({"steps": [{"title": "S", "caption": "C", "preset": "x"}]})",
            "lesson.json: needs \"title\" (a non-empty string)");
        row("title a number", R"({"title": 3, "steps": []})", "\"title\" must be a non-empty string, not number");
        row("no steps", R"({"title": "T"})", "needs \"steps\", a non-empty array of steps");
        row("empty steps", R"({"title": "T", "steps": []})", "needs \"steps\", a non-empty array");
        row("step not an object", R"({"title": "T", "steps": ["x"]})",
            "lesson.json: step 1: must be an object, not string");
        row("unknown step key", oneStep(R"("preset": "a-ablation", "hilight": {})"),
            "step 1 (\"S\"): unknown key \"hilight\"; a step has: title, caption, preset, config, "
            "set, highlight, pause");
        row("no caption", R"({"title": "T", "steps": [{"title": "S", "preset": "p"}]})",
            "step 1 (\"S\"): needs \"caption\" (a non-empty string)");
        row("empty caption", R"({"title": "T", "steps": [{"title": "S", "caption": "", "preset": "p"}]})",
            "step 1 (\"S\"): \"caption\" must be a non-empty string, not an empty one");
        row("preset and config", oneStep(R"("preset": "p", "config": {})"),
            "step 1 (\"S\"): has both \"preset\" and \"config\"; give one");
        row("neither preset nor config", oneStep(R"("set": {})"),
            "step 1 (\"S\"): needs \"preset\" (a preset's name) or \"config\" (its keys)");
        row("config not an object", oneStep(R"("config": 3)"), "\"config\" must be an object of keys");
        row("set not an object", oneStep(R"("preset": "p", "set": ["lr=1"])"),
            "\"set\" must be an object {\"key\": value}, not array");
        row("set nested", oneStep(R"("preset": "p", "set": {"data": {"n": 3}})"),
            "\"set\": the value of \"data\" must be a number, string or true/false (write nested "
            "keys with a dot: \"data.n\"), not object");
        row("highlight unknown", oneStep(R"("preset": "p", "highlight": {"curve": "x"})"),
            "unknown key \"highlight.curve\"; it has: chart, run, claim");
        row("highlight empty", oneStep(R"("preset": "p", "highlight": {"chart": ""})"),
            "in \"highlight\": \"chart\" must be a non-empty string");
        row("highlight string", oneStep(R"("preset": "p", "highlight": "loss")"),
            "\"highlight\" must be an object with \"chart\", \"run\" or \"claim\", not string");
        row("pause both", oneStep(R"("preset": "p", "pause": {"iteration": 3, "claim": "c"})"),
            "\"pause\" must be {\"iteration\": N} or {\"claim\": \"id\"}");
        row("pause unknown", oneStep(R"("preset": "p", "pause": {"at": 3})"),
            "\"pause\" must be {\"iteration\": N} or {\"claim\": \"id\"}");
        row("pause at 0", oneStep(R"("preset": "p", "pause": {"iteration": 0})"),
            "\"pause.iteration\" must be a whole number ≥ 1, not 0");
        row("pause at 2.5", oneStep(R"("preset": "p", "pause": {"iteration": 2.5})"),
            "\"pause.iteration\" must be a whole number ≥ 1, not 2.5");
        row("pause claim empty", oneStep(R"("preset": "p", "pause": {"claim": ""})"),
            "in \"pause\": \"claim\" must be a non-empty string");
        row("second step", R"({"title": "T", "steps": [{"title": "A", "caption": "c", "preset": "p"},
            {"title": "B", "caption": "c"}]})",
            "lesson.json: step 2 (\"B\"): needs \"preset\"");
    }
    void shapeErrorsNameTheStep() {
        QFETCH(QString, text);
        QFETCH(QString, expect);
        LessonError e;
        QVERIFY(!parseLesson(text.toStdString(), "lesson.json", &e));
        QVERIFY2(QString::fromStdString(e.message).contains(expect),
                 qPrintable(QStringLiteral("got: ") + QString::fromStdString(e.message)));
    }

    // What a step names, checked against the presets, the experiments' charts and the plan.
    void planErrorsNameTheStep_data() {
        QTest::addColumn<QString>("step");
        QTest::addColumn<QString>("expect");
        auto row = [](const char* name, const char* step, const char* expect) {
            QTest::newRow(name) << QString::fromUtf8(step) << QString::fromUtf8(expect);
        };
        row("unknown preset", R"("preset": "a-nonesuch")",
            "l: step 1 (\"S\"): unknown preset \"a-nonesuch\"; available: a-ablation");
        row("unknown key in set", R"("preset": "a-ablation", "set": {"learning_rate": 1})",
            "step 1 (\"S\"): a-ablation: unknown key 'learning_rate'");
        row("bad value in set", R"("preset": "a-ablation", "set": {"iterations": -4})",
            "step 1 (\"S\"): a-ablation: ");
        row("bad inline config", R"("config": {"lr": "fast"})", "step 1 (\"S\"): l-step1: ");
        row("chart of another experiment", R"("preset": "a-ablation", "highlight": {"chart": "rel_l2"})",
            "highlights chart \"rel_l2\", which its experiment does not draw; its charts: loss, "
            "manifold, imbalance, norms");
        row("run not in the plan", R"("preset": "b-regularizers", "highlight": {"run": "l2"})",
            "highlights run \"l2\", which its plan does not have; its runs: none, log-amplified, power");
        row("chart of a sweep", R"("preset": "a-scaling-n", "highlight": {"chart": "loss"})",
            "its plan is a sweep: the sweep plot is what is shown");
        row("run of a sweep", R"("preset": "a-scaling-n", "highlight": {"run": "alg1"})",
            "but its plan is a sweep (every grid point is a run)");
        row("pause in a sweep", R"("preset": "a-scaling-n", "pause": {"iteration": 5})",
            "pauses at an iteration, but its plan is a sweep");
        row("pause after the end", R"("preset": "a-ablation", "set": {"iterations": 100}, "pause": {"iteration": 101})",
            "pauses at iteration 101, after its runs end (iterations = 100)");
        row("claim of a plan without claims", R"("config": {"config": {"experiment": "a", "iterations": 20},
              "runs": [{"name": "gd"}]}, "highlight": {"claim": "fast"})",
            "names claim \"fast\", which its plan does not declare; its claims: none");
        row("claim a preset lacks", R"("preset": "a-ablation", "highlight": {"claim": "fast"})",
            "names claim \"fast\", which its plan does not declare; its claims: precond-speed, "
            "reg-balances, reg-balances-precond");
        row("claim the plan lacks", R"("config": {"config": {"experiment": "a", "iterations": 20},
              "runs": [{"name": "gd"}, {"name": "adam", "config": {"optimizer": "adam"}}],
              "claims": [{"id": "faster", "text": "t", "paper": "A", "check": "ratio",
                          "metric": "train_loss", "run": "gd", "other": "adam", "min": 1}]},
              "pause": {"claim": "slower"})",
            "names claim \"slower\", which its plan does not declare; its claims: faster");
        row("pause at a claim of a sweep", R"("config": {"config": {"experiment": "a", "iterations": 20},
              "runs": [{"name": "gd"}],
              "sweep": {"vary": {"data.n": [16, 32]}, "fit": {"x": "data.n", "y": "excess_risk"}},
              "claims": [{"id": "law", "text": "t", "paper": "A", "check": "slope",
                          "metric": "excess_risk", "run": "gd", "x": "data.n", "max": 0}]},
              "pause": {"claim": "law"})",
            "pauses when claim \"law\" holds, but its plan is a sweep");
    }
    void planErrorsNameTheStep() {
        QFETCH(QString, step);
        QFETCH(QString, expect);
        LessonError e;
        const auto lesson = parseLesson(oneStep(step.toStdString()), "l", &e);
        QVERIFY2(lesson, e.message.c_str());
        QVERIFY(!stepPlan(*lesson, 0, shipped(), &e));
        QVERIFY2(QString::fromStdString(e.message).contains(expect),
                 qPrintable(QStringLiteral("got: ") + QString::fromStdString(e.message)));
        const auto whole = checkLesson(*lesson, shipped());
        QVERIFY(whole);
        QCOMPARE(whole->message, e.message);
    }

    void libraryListsFilesAndTheirErrors() {
        QTemporaryDir first, second;
        auto write = [](const QString& dir, const char* name, const std::string& text) {
            std::ofstream(QDir(dir).filePath(QString::fromUtf8(name)).toStdString()) << text;
        };
        write(first.path(), "b.json", oneStep(R"("preset": "a-ablation")"));
        write(first.path(), "broken.json", "{");
        write(first.path(), "notes.txt", "not a lesson");
        write(second.path(), "b.json", R"({"title": "shadowed", "steps": [1]})");
        write(second.path(), "a.json", R"({"name": "alpha", "title": "Alpha", "steps": [
            {"title": "S", "caption": "C", "preset": "a-ablation"}]})");
        const LessonLibrary lib({first.path().toStdString(), second.path().toStdString()});
        QCOMPARE(lib.entries().size(), std::size_t(3));  // b, broken, alpha; not notes.txt
        QCOMPARE(lib.entries()[0].name, std::string("b"));
        QCOMPARE(lib.entries()[0].title, std::string("T"));  // the first folder's b wins
        QVERIFY(lib.entries()[1].description.find("malformed JSON") != std::string::npos);
        QVERIFY(lib.find("alpha"));
        LessonError e;
        QVERIFY(lib.load("alpha", &e));
        QVERIFY(!lib.load("gamma", &e));
        QVERIFY2(e.message.find("unknown lesson \"gamma\"; available: b, broken, alpha") !=
                     std::string::npos,
                 e.message.c_str());
        QVERIFY(!loadLessonFile(first.path().toStdString(), &e));
        QVERIFY2(e.message.find("is a directory") != std::string::npos, e.message.c_str());
        QVERIFY(!loadLessonFile(QDir(first.path()).filePath("gone.json").toStdString(), &e));
        QVERIFY2(e.message.find("cannot open file") != std::string::npos, e.message.c_str());
    }

    void lessonsSitBesideThePresets() {
        const auto presets = PresetLibrary::defaultDirectories("");
        const auto lessons = LessonLibrary::defaultDirectories("");
        QCOMPARE(lessons.size(), presets.size());
        for (std::size_t i = 0; i < lessons.size(); ++i)
            QCOMPARE(lessons[i], presets[i].parent_path() / "lessons");
    }

    // Every shipped lesson loads, and every step names presets, charts and runs that exist.
    void everyShippedLessonPlays() {
        const LessonLibrary lib(LessonLibrary::defaultDirectories(""));
        const PresetLibrary presets = shipped();
        std::set<std::string> names;
        for (const auto& entry : lib.entries()) {
            LessonError e;
            const auto lesson = loadLessonFile(entry.file, &e);
            QVERIFY2(lesson, e.message.c_str());
            const auto error = checkLesson(*lesson, presets);
            QVERIFY2(!error, error ? error->message.c_str() : "");
            for (const auto& step : lesson->steps) {
                // A caption says what to look at in a few sentences, not a page.
                QVERIFY2(step.caption.size() >= 80 && step.caption.size() <= 600,
                         (lesson->name + ": " + step.title).c_str());
            }
            names.insert(lesson->name);
        }
        for (const char* n : {"spectral-start", "norms-under-noise", "data-compute-law"})
            QVERIFY2(names.count(n), n);
    }
};

QTEST_GUILESS_MAIN(TestLessons)
#include "tst_lessons.moc"
