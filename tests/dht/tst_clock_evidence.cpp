// ClockEvidence: what the run's record times say about this computer's clock.
#include "core/dht/ClockEvidence.h"

#include <QTest>

using sahaj::dht::ClockEvidence;

class TestClockEvidence : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void recordsOnARightClockSayNothing() {
        QVERIFY(ClockEvidence::problem({}).empty());
        // Newest records a few seconds to half a minute old, one a little ahead (a clock 30 s off works).
        QVERIFY(ClockEvidence::problem({-2000, -15000, -31000, 4000, -45000}).empty());
        QVERIFY(ClockEvidence::problem({30000, 25000, 29000}).empty());
        QVERIFY(ClockEvidence::problem({-60000, -70000, -40000}).empty());
    }

    void recordsFromTheFutureSayTheClockIsBehind() {
        // Five minutes behind; one owner's record stale (it left): the median rules.
        const std::string said = ClockEvidence::problem({300000, 290000, -20000, 305000, 298000});
        QVERIFY2(said.find("about 298 s behind") != std::string::npos, said.c_str());
        QVERIFY2(said.find("set the clock right") != std::string::npos, said.c_str());
    }

    void recordsAllOldSayTheClockIsAheadOrTheRunStopped() {
        const std::string said = ClockEvidence::problem({-300000, -310000, -295000});
        QVERIFY2(said.find("310 s old") == std::string::npos && said.find("300 s old") != std::string::npos,
                 said.c_str());
        QVERIFY2(said.find("ahead") != std::string::npos && said.find("stopped") != std::string::npos,
                 said.c_str());
    }
};

QTEST_GUILESS_MAIN(TestClockEvidence)
#include "tst_clock_evidence.moc"
