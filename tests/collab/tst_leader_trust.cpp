// LeaderTrust: which leaders a peer follows, after what it saw them do. A leader that accepted members and
// never began (issue: a liar declaring the earliest expiration) stops being followed; a slow one that fails
// once does not.
#include "core/collab/LeaderTrust.h"

#include <QTest>

#include <string>

using namespace sahaj;
using collab::LeaderTrust;
using namespace std::chrono_literals;

class TestLeaderTrust : public QObject {
    Q_OBJECT

    const std::string liar_ = std::string(32, 'x');
    const std::string slow_ = std::string(32, 's');
    const LeaderTrust::Clock::time_point t0_ = LeaderTrust::Clock::now();

private Q_SLOTS:
    void aLeaderThatNeverBeginsIsDistrustedAtItsSecondFailure() {
        LeaderTrust trust(600s);
        QVERIFY(trust.follows(liar_, t0_));
        QVERIFY(!trust.beganNothing(liar_, t0_));
        QVERIFY(trust.follows(liar_, t0_ + 1s)); // once: more likely slow than lying
        QVERIFY(trust.beganNothing(liar_, t0_ + 30s));
        QVERIFY(!trust.follows(liar_, t0_ + 31s));
        QVERIFY(!trust.follows(liar_, t0_ + 629s));
        QVERIFY(trust.follows(liar_, t0_ + 631s)); // the distrust ends
        // ... but a leader distrusted once is distrusted again at its next failure.
        QVERIFY(trust.beganNothing(liar_, t0_ + 700s));
        QVERIFY(!trust.follows(liar_, t0_ + 701s));
        QVERIFY(trust.follows(slow_, t0_ + 701s)); // nobody else is touched
    }

    void aGroupBegunForgivesAFailure() {
        LeaderTrust trust(600s);
        QVERIFY(!trust.beganNothing(slow_, t0_));
        trust.beganGroup(slow_);
        QVERIFY(!trust.beganNothing(slow_, t0_ + 60s)); // not two in a row
        QVERIFY(trust.follows(slow_, t0_ + 61s));
    }

    void aBrokenPlanIsDistrustedAtOnce() {
        LeaderTrust trust(120s);
        trust.brokePlan(liar_, t0_);
        QVERIFY(!trust.follows(liar_, t0_ + 1s));
        QVERIFY(trust.follows(liar_, t0_ + 121s));
        QCOMPARE(trust.distrustFor(), 120s);
    }
};

QTEST_APPLESS_MAIN(TestLeaderTrust)
#include "tst_leader_trust.moc"
