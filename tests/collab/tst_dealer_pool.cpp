// DealerPool: DEALERs kept connected between uses, over real sockets on loopback. A kept connection is up at
// once (the point of keeping it), brings nothing its last user was sent, and the pool stays within its
// capacity and idle time.
#include "core/collab/DealerPool.h"
#include "core/net/SocketFactory.h"

#include <QElapsedTimer>
#include <QTest>

#include <string>
#include <thread>

using namespace sahaj;
using collab::DealerPool;
using namespace std::chrono_literals;

class TestDealerPool : public QObject {
    Q_OBJECT

    zmq::context_t context_;
    net::SocketFactory sockets_{context_, std::string(32, 'p')};

    // Sends one frame through `dealer` without waiting; true once it went (ZMQ_IMMEDIATE: only when the
    // connection is up).
    static bool trySend(zmq::socket_t& dealer, const std::string& text) {
        return dealer.send(zmq::buffer(text), zmq::send_flags::dontwait).has_value();
    }
    // Tries for up to two seconds; how many tries it took (0: never).
    static int sendWhenUp(zmq::socket_t& dealer, const std::string& text) {
        for (int tries = 1; tries <= 200; ++tries) {
            if (trySend(dealer, text))
                return tries;
            std::this_thread::sleep_for(10ms);
        }
        return 0;
    }
    // The routing id and text of one message on `router`, waiting up to two seconds.
    static std::pair<std::string, std::string> receive(zmq::socket_t& router) {
        router.set(zmq::sockopt::rcvtimeo, 2000);
        zmq::message_t route, body;
        if (!router.recv(route) || !router.recv(body))
            return {};
        return {route.to_string(), body.to_string()};
    }

private Q_SLOTS:
    void aKeptConnectionIsUpAtOnceAndBringsNothingStale() {
        zmq::socket_t router = sockets_.bindRouter("tcp://127.0.0.1:0");
        const std::string endpoint = net::SocketFactory::boundEndpoint(router);
        DealerPool pool(sockets_);
        zmq::socket_t dealer = pool.take(endpoint, {});
        QCOMPARE(pool.connected(), std::size_t{1});
        QVERIFY(sendWhenUp(dealer, "hello") > 0);
        const auto [route, text] = receive(router);
        QCOMPARE(text, std::string("hello"));
        // The router answers after this user is done with the connection: for the next user, stale.
        router.send(zmq::buffer(route), zmq::send_flags::sndmore);
        router.send(zmq::buffer(std::string("late reply")));
        std::this_thread::sleep_for(200ms);
        pool.keep(endpoint, {}, std::move(dealer));
        QCOMPARE(pool.size(), std::size_t{1});

        zmq::socket_t again = pool.take(endpoint, {});
        QCOMPARE(pool.reused(), std::size_t{1});
        QCOMPARE(pool.size(), std::size_t{0});
        zmq::message_t frame;
        QVERIFY2(!again.recv(frame, zmq::recv_flags::dontwait), "a message for the last user was kept");
        QVERIFY2(trySend(again, "at once"), "a kept connection was not up");
        QCOMPARE(receive(router).second, std::string("at once"));
    }

    void aConnectionIsKeptPerEndpointAndKey() {
        zmq::socket_t a = sockets_.bindRouter("tcp://127.0.0.1:0");
        zmq::socket_t b = sockets_.bindRouter("tcp://127.0.0.1:0");
        const std::string toA = net::SocketFactory::boundEndpoint(a),
                          toB = net::SocketFactory::boundEndpoint(b);
        DealerPool pool(sockets_);
        pool.keep(toA, {}, pool.take(toA, {}));
        pool.take(toB, {}); // not kept there: a new one
        QCOMPARE(pool.connected(), std::size_t{2});
        QCOMPARE(pool.reused(), std::size_t{0});
        pool.keep(toA, {}, pool.take(toA, {}));
        QCOMPARE(pool.reused(), std::size_t{1});
        pool.keep({}, {}, pool.take(toB, {})); // no endpoint: nothing kept
        QCOMPARE(pool.size(), std::size_t{1});
    }

    void theOldestGoBeyondCapacityAndIdleTime() {
        std::vector<zmq::socket_t> routers;
        std::vector<std::string> endpoints;
        for (int i = 0; i < 3; ++i) {
            routers.push_back(sockets_.bindRouter("tcp://127.0.0.1:0"));
            endpoints.push_back(net::SocketFactory::boundEndpoint(routers.back()));
        }
        DealerPool small(sockets_, 2, 60s);
        for (const std::string& endpoint : endpoints)
            small.keep(endpoint, {}, small.take(endpoint, {}));
        QCOMPARE(small.size(), std::size_t{2});
        small.take(endpoints[0], {}); // the oldest went
        QCOMPARE(small.reused(), std::size_t{0});
        small.take(endpoints[2], {});
        QCOMPARE(small.reused(), std::size_t{1});

        DealerPool brief(sockets_, 8, 50ms);
        brief.keep(endpoints[1], {}, brief.take(endpoints[1], {}));
        std::this_thread::sleep_for(100ms);
        brief.take(endpoints[1], {}); // kept too long: a new connection
        QCOMPARE(brief.reused(), std::size_t{0});
        QCOMPARE(brief.connected(), std::size_t{2});
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, DealerPool(sockets_, 0));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, DealerPool(sockets_, 8, 60s, 0));
    }

    // Memory in bytes (docs/security.md): what reaches a kept connection is read and dropped at each drain,
    // not held in its queue until the next take(); a connection that brings more than the pool's idle
    // allowance is closed. Here the peer at the other end sends a late reply of 100 bytes, then a flood of
    // 1 MiB messages to a pool that allows 2 MiB.
    void whatAKeptConnectionBringsIsDroppedAndAFlooderClosed() {
        zmq::socket_t router = sockets_.bindRouter("tcp://127.0.0.1:0");
        const std::string endpoint = net::SocketFactory::boundEndpoint(router);
        DealerPool pool(sockets_, 8, 60s, 2u << 20);
        zmq::socket_t dealer = pool.take(endpoint, {});
        QVERIFY(sendWhenUp(dealer, "hello") > 0);
        const std::string route = receive(router).first;
        pool.keep(endpoint, {}, std::move(dealer));
        const auto sendToKept = [&](std::size_t bytes) {
            router.send(zmq::buffer(route), zmq::send_flags::sndmore);
            router.send(zmq::buffer(std::string(bytes, 'x')));
        };
        sendToKept(100);
        QTRY_COMPARE_WITH_TIMEOUT((pool.drainKept(), pool.drainedBytes()), std::uint64_t{100}, 2000);
        QCOMPARE(pool.size(), std::size_t{1}); // a late reply: kept

        for (int i = 0; i < 3; ++i)
            sendToKept(1u << 20);
        QTRY_COMPARE_WITH_TIMEOUT((pool.drainKept(), pool.closedForBytes()), std::size_t{1}, 5000);
        QCOMPARE(pool.size(), std::size_t{0});
        QVERIFY(pool.drainedBytes() > (2u << 20));
    }
};

QTEST_GUILESS_MAIN(TestDealerPool)
#include "tst_dealer_pool.moc"
