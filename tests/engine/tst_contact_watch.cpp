// ContactWatch: a running peer that hears from no other peer for the deadline has lost its collaboration,
// and regains it with the first record of another peer; a new join starts the count afresh. The run's
// coordinator alone unheard from for the deadline, while other peers are, is said on its own, and cleared
// when it answers again.
#include "core/engine/ContactWatch.h"

#include <QTest>

using sahaj::engine::ContactWatch;
using Change = ContactWatch::Change;

class TestContactWatch : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void lostAfterTheDeadlineWithoutPeersAndRegained() {
        ContactWatch watch(30'000);
        watch.joined(1'000);
        QCOMPARE(watch.observe(0, true, 30'999), Change::None); // since the join: not yet
        QCOMPARE(watch.observe(3, true, 40'000), Change::None);
        QCOMPARE(watch.observe(0, true, 69'999), Change::None);
        QCOMPARE(watch.observe(0, true, 70'000), Change::Lost); // 30 s since the last peer
        QVERIFY(watch.lost());
        QCOMPARE(watch.silentForMs(70'000), qint64(30'000));
        QCOMPARE(watch.observe(0, true, 90'000), Change::None); // said once
        QCOMPARE(watch.observe(1, true, 91'000), Change::Regained);
        QVERIFY(!watch.lost());
        QCOMPARE(watch.observe(1, true, 92'000), Change::None);
    }

    void aNewJoinStartsAfresh() {
        ContactWatch watch(30'000);
        watch.joined(0);
        QCOMPARE(watch.observe(0, true, 30'000), Change::Lost);
        watch.joined(100'000);
        QVERIFY(!watch.lost());
        QCOMPARE(watch.observe(0, true, 120'000), Change::None);
        QCOMPARE(watch.observe(0, true, 130'000), Change::Lost);
    }

    void aCoordinatorUnheardFromWhileOthersAreIsLostAndRegained() {
        ContactWatch watch(30'000);
        watch.joined(0);
        QCOMPARE(watch.observe(2, true, 10'000), Change::None);
        QCOMPARE(watch.observe(2, false, 39'999), Change::None); // 29.999 s since it last answered
        QVERIFY(!watch.coordinatorLost());
        QCOMPARE(watch.observe(2, false, 40'000), Change::CoordinatorLost);
        QVERIFY(watch.coordinatorLost());
        QVERIFY(!watch.lost()); // the others are there: training goes on
        QCOMPARE(watch.coordinatorSilentForMs(40'000), qint64(30'000));
        QCOMPARE(watch.observe(2, false, 50'000), Change::None); // said once
        QCOMPARE(watch.observe(2, true, 60'000), Change::CoordinatorRegained);
        QVERIFY(!watch.coordinatorLost());
        QCOMPARE(watch.observe(2, true, 61'000), Change::None);
    }

    void aCoordinatorNeverSeenIsLostFromTheJoin() {
        ContactWatch watch(30'000);
        watch.joined(1'000);
        QCOMPARE(watch.observe(1, false, 30'999), Change::None);
        QCOMPARE(watch.observe(1, false, 31'000), Change::CoordinatorLost);
        watch.joined(100'000); // a new join starts afresh
        QVERIFY(!watch.coordinatorLost());
        QCOMPARE(watch.observe(1, false, 129'999), Change::None);
    }

    // With every peer gone, the collaboration is lost, which says more: the coordinator is not said
    // apart, and is again once the others come back without it.
    void theCollaborationLostOutranksTheCoordinator() {
        ContactWatch watch(30'000);
        watch.joined(0);
        QCOMPARE(watch.observe(0, false, 30'000), Change::Lost);
        QVERIFY(watch.lost());
        QVERIFY(!watch.coordinatorLost());
        QCOMPARE(watch.observe(0, false, 40'000), Change::None);
        QCOMPARE(watch.observe(1, false, 50'000), Change::Regained);
        QVERIFY(watch.coordinatorLost());
        QCOMPARE(watch.observe(1, true, 51'000), Change::CoordinatorRegained);
        // The coordinator lost first, then everyone: the loss of the collaboration is what is said.
        QCOMPARE(watch.observe(1, false, 81'000), Change::CoordinatorLost);
        QCOMPARE(watch.observe(0, false, 111'000), Change::Lost);
        QVERIFY(!watch.coordinatorLost());
    }
};

QTEST_GUILESS_MAIN(TestContactWatch)
#include "tst_contact_watch.moc"
