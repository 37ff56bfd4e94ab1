// The local address a peer binds to unless told: the one the system routes toward the coordinator.
// (Across hosts: tst_nat_collaboration, whose volunteers are given no --listen.)
#include "core/net/AddressWatch.h"
#include "core/net/RouteSource.h"

#include <QTest>

using sahaj::net::AddressWatch;
using sahaj::net::RouteSource;

class TestRouteSource : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void aCoordinatorOnThisMachineIsReachedFromLoopback() {
        QCOMPARE(RouteSource::toward("127.0.0.1"), QStringLiteral("127.0.0.1"));
        QCOMPARE(RouteSource::toward("127.0.0.2"), QStringLiteral("127.0.0.1"));
    }

    void whatIsNotAnAddressHasNoRoute() {
        QVERIFY(RouteSource::toward("coordinator.example.org").isEmpty());
        QVERIFY(RouteSource::toward("256.1.1.1").isEmpty());
        QVERIFY(RouteSource::toward(QString()).isEmpty());
    }

    // A peer bound at 10.0.0.1 that now reaches the coordinator from loopback has moved: it is told once,
    // and not before the interval (the routing table is looked at no more often).
    void aWatchSaysOnceWhenTheAddressChanged() {
        const auto start = AddressWatch::Clock::now();
        AddressWatch watch(QStringLiteral("127.0.0.1"), QStringLiteral("10.0.0.1"));
        QVERIFY(!watch.changed(start));
        QCOMPARE(watch.changed(start + AddressWatch::kInterval + std::chrono::seconds(1)),
                 std::optional<QString>(QStringLiteral("127.0.0.1")));
        QCOMPARE(watch.current(), QStringLiteral("127.0.0.1"));
        QVERIFY(!watch.changed(start + 3 * AddressWatch::kInterval));
        // A coordinator with no route leaves the peer where it is.
        AddressWatch lost(QStringLiteral("not-an-address"), QStringLiteral("10.0.0.1"));
        QVERIFY(!lost.changed(start + 2 * AddressWatch::kInterval));
        QCOMPARE(lost.current(), QStringLiteral("10.0.0.1"));
    }
};

QTEST_GUILESS_MAIN(TestRouteSource)
#include "tst_route_source.moc"
