// ContactWatch: a running peer that hears from no other peer for the deadline has lost its collaboration,
// and regains it with the first record of another peer; a new join starts the count afresh.
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
        QCOMPARE(watch.observe(0, 30'999), Change::None); // since the join: not yet
        QCOMPARE(watch.observe(3, 40'000), Change::None);
        QCOMPARE(watch.observe(0, 69'999), Change::None);
        QCOMPARE(watch.observe(0, 70'000), Change::Lost); // 30 s since the last peer
        QVERIFY(watch.lost());
        QCOMPARE(watch.silentForMs(70'000), qint64(30'000));
        QCOMPARE(watch.observe(0, 90'000), Change::None); // said once
        QCOMPARE(watch.observe(1, 91'000), Change::Regained);
        QVERIFY(!watch.lost());
        QCOMPARE(watch.observe(1, 92'000), Change::None);
    }

    void aNewJoinStartsAfresh() {
        ContactWatch watch(30'000);
        watch.joined(0);
        QCOMPARE(watch.observe(0, 30'000), Change::Lost);
        watch.joined(100'000);
        QVERIFY(!watch.lost());
        QCOMPARE(watch.observe(0, 120'000), Change::None);
        QCOMPARE(watch.observe(0, 130'000), Change::Lost);
    }
};

QTEST_GUILESS_MAIN(TestContactWatch)
#include "tst_contact_watch.moc"
