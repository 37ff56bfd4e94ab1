// The local address a peer binds to unless told: the one the system routes toward the coordinator.
// (Across hosts: tst_nat_collaboration, whose volunteers are given no --listen.)
#include "core/net/RouteSource.h"

#include <QTest>

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
};

QTEST_GUILESS_MAIN(TestRouteSource)
#include "tst_route_source.moc"
