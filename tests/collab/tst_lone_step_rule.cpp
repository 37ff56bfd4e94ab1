// LoneStepRule: a peer alone with its batch full looks for a group again, for at most its patience, while
// other peers are at its epoch or one behind it; with nobody there it steps alone at once
// (docs/collaboration.md, "What keeps the replicas equal").
#include "core/collab/LoneStepRule.h"

#include <QTest>

#include <chrono>

using namespace sahaj;
using collab::LoneStepRule;
using namespace std::chrono_literals;

class TestLoneStepRule : public QObject {
    Q_OBJECT

    const LoneStepRule::Clock::time_point t0{};

private Q_SLOTS:
    void withNobodyElseItStepsAtOnce() {
        LoneStepRule rule(60s);
        const LoneStepRule::Decision decision = rule.decide(7, 0, 0, t0);
        QVERIFY(decision.stepAlone);
        QVERIFY(!decision.firstWait);
    }

    void peersAtItsEpochMakeItLookAgainUntilItsPatienceEnds() {
        LoneStepRule rule(60s);
        const LoneStepRule::Decision first = rule.decide(7, 2, 0, t0);
        QVERIFY(!first.stepAlone);
        QVERIFY(first.firstWait);
        const LoneStepRule::Decision again = rule.decide(7, 2, 0, t0 + 59s);
        QVERIFY(!again.stepAlone);
        QVERIFY(!again.firstWait); // said once
        QVERIFY(rule.decide(7, 2, 0, t0 + 60s).stepAlone);
    }

    // The runaway: the others are still finishing the step to this epoch; stepping now would leave them an
    // epoch behind, and the epoch after it this peer would be alone again, with nobody even behind it.
    void peersOneEpochBehindMakeItLookAgainToo() {
        LoneStepRule rule(60s);
        QVERIFY(!rule.decide(7, 0, 3, t0).stepAlone);
        QVERIFY(!rule.decide(7, 0, 3, t0 + 30s).stepAlone);
        QVERIFY(rule.decide(7, 0, 3, t0 + 61s).stepAlone);
    }

    void eachEpochWaitsItsOwnPatience() {
        LoneStepRule rule(60s);
        QVERIFY(!rule.decide(7, 1, 0, t0).stepAlone);
        QVERIFY(rule.decide(7, 1, 0, t0 + 60s).stepAlone);
        const LoneStepRule::Decision next = rule.decide(8, 1, 0, t0 + 61s);
        QVERIFY(!next.stepAlone);
        QVERIFY(next.firstWait);
    }

    void aGroupFormedStartsThePatienceOver() {
        LoneStepRule rule(60s);
        QVERIFY(!rule.decide(7, 1, 0, t0).stepAlone);
        rule.reset();
        QVERIFY(!rule.decide(7, 1, 0, t0 + 90s).stepAlone);
        QVERIFY(rule.decide(7, 1, 0, t0 + 150s).stepAlone);
    }
};

QTEST_GUILESS_MAIN(TestLoneStepRule)
#include "tst_lone_step_rule.moc"
