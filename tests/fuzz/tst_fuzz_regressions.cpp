// Replays the fuzz corpus and every crash the fuzzers ever found (fuzz/regressions/<target>/)
// through the same entry points, in the normal (and sanitizer) builds.
#include <QtTest>

#include "FuzzTargets.h"

class TestFuzzRegressions : public QObject {
    Q_OBJECT

    static int replay(const QString& target, int (*fn)(const std::uint8_t*, std::size_t)) {
        int count = 0;
        for (const char* kind : {"corpus", "regressions"}) {
            QDir dir(QString(ADE_FUZZ_DIR) + "/" + kind + "/" + target);
            for (const auto& info : dir.entryInfoList(QDir::Files)) {
                QFile f(info.filePath());
                if (!f.open(QIODevice::ReadOnly)) continue;
                const QByteArray bytes = f.readAll();
                fn(reinterpret_cast<const std::uint8_t*>(bytes.constData()),
                   static_cast<std::size_t>(bytes.size()));
                ++count;
            }
        }
        return count;
    }

  private slots:
    void plan() { QVERIFY(replay("plan", adefuzz::plan) >= 4); }
    void set() { QVERIFY(replay("set", adefuzz::set) >= 2); }
    void session() { QVERIFY(replay("session", adefuzz::session) >= 2); }
    void npy() { QVERIFY(replay("npy", adefuzz::npy) >= 3); }
    void hostileInputs() {
        // A few classics, whatever the corpus holds.
        const QList<QByteArray> inputs = {"",
                                          "{",
                                          "[[[[[[[[[[[[[[[[[[[[",
                                          "{\"runs\": [{}]}",
                                          "{\"config\": {\"data\": {\"n\": {\"x\": 1}}}}",
                                          "\x93NUMPY\x01\x00\xff\xff",
                                          "=\n==\nseed=-1\n",
                                          QByteArray(100000, '[')};
        for (const auto& in : inputs) {
            const auto* d = reinterpret_cast<const std::uint8_t*>(in.constData());
            adefuzz::plan(d, in.size());
            adefuzz::set(d, in.size());
            adefuzz::npy(d, in.size());
            adefuzz::session(d, in.size());
        }
    }
};

QTEST_APPLESS_MAIN(TestFuzzRegressions)
#include "tst_fuzz_regressions.moc"
