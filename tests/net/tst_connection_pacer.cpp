// ConnectionPacer finds a round's connections among this process's descriptors and caps their send rate:
// the ones accepted on the ROUTER's port and the ones leading to an aggregator's endpoint, never a
// listening socket or an unrelated connection. Real TCP sockets on loopback; the kernel reports each cap.
#include "core/net/ConnectionPacer.h"
#include "core/net/SocketFactory.h"

#include <QtTest>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <zmq.hpp>

using namespace sahaj::net;

namespace {

// A descriptor closed when the test is done with it.
class Fd {
public:
    explicit Fd(int fd = -1) : fd_(fd) {}
    Fd(Fd&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
    Fd& operator=(Fd&& other) noexcept {
        std::swap(fd_, other.fd_);
        return *this;
    }
    ~Fd() {
        if (fd_ >= 0)
            ::close(fd_);
    }
    int get() const { return fd_; }

private:
    int fd_;
};

std::uint16_t portOf(int fd) {
    sockaddr_in address{};
    socklen_t length = sizeof address;
    getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length);
    return ntohs(address.sin_port);
}

Fd listenOnLoopback() {
    Fd listener(::socket(AF_INET, SOCK_STREAM, 0));
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::bind(listener.get(), reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 ||
        ::listen(listener.get(), 8) != 0)
        return Fd();
    return listener;
}

Fd connectTo(std::uint16_t port) {
    Fd client(::socket(AF_INET, SOCK_STREAM, 0));
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    address.sin_port = htons(port);
    if (::connect(client.get(), reinterpret_cast<sockaddr*>(&address), sizeof address) != 0)
        return Fd();
    return client;
}

std::string endpoint(std::uint16_t port) {
    return "tcp://127.0.0.1:" + std::to_string(port);
}

// What a socket carries when nobody capped it: the kernel's "no limit".
std::uint64_t unlimited() {
    Fd probe(::socket(AF_INET, SOCK_STREAM, 0));
    return ConnectionPacer::pacingRate(probe.get()).value_or(0);
}

} // namespace

class TestConnectionPacer : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void pacesTheRoundsConnectionsOnly() {
        // The "ROUTER": a listener whose accepted connections are the members'.
        const Fd router = listenOnLoopback();
        QVERIFY(router.get() >= 0);
        const Fd member = connectTo(portOf(router.get()));
        const Fd accepted(::accept(router.get(), nullptr, nullptr));
        // The "aggregator" this member's DEALER leads to.
        const Fd aggregator = listenOnLoopback();
        const Fd dealer = connectTo(portOf(aggregator.get()));
        const Fd aggregatorSide(::accept(aggregator.get(), nullptr, nullptr));
        // Unrelated: another server and a connection to it.
        const Fd other = listenOnLoopback();
        const Fd otherClient = connectTo(portOf(other.get()));
        const Fd otherAccepted(::accept(other.get(), nullptr, nullptr));
        QVERIFY(member.get() >= 0 && accepted.get() >= 0 && dealer.get() >= 0 && otherClient.get() >= 0);

        const std::uint64_t none = unlimited();
        QVERIFY(none > 0);
        constexpr double kRate = 12.5e6; // 100 Mbit/s
        ConnectionPacer pacer(kRate, endpoint(portOf(router.get())), {endpoint(portOf(aggregator.get()))});
        pacer.refresh();

        QCOMPARE(ConnectionPacer::pacingRate(accepted.get()), std::optional<std::uint64_t>(12'500'000));
        QCOMPARE(ConnectionPacer::pacingRate(dealer.get()), std::optional<std::uint64_t>(12'500'000));
        // The member's own end connects *to* the ROUTER's port, from a port of its own: not this
        // member's connection (in a real round it lives in another process).
        QCOMPARE(ConnectionPacer::pacingRate(member.get()), std::optional<std::uint64_t>(none));
        // Listeners: their future connections would inherit the cap long after the round.
        QCOMPARE(ConnectionPacer::pacingRate(router.get()), std::optional<std::uint64_t>(none));
        QCOMPARE(ConnectionPacer::pacingRate(aggregator.get()), std::optional<std::uint64_t>(none));
        QCOMPARE(ConnectionPacer::pacingRate(aggregatorSide.get()), std::optional<std::uint64_t>(none));
        QCOMPARE(ConnectionPacer::pacingRate(otherClient.get()), std::optional<std::uint64_t>(none));
        QCOMPARE(ConnectionPacer::pacingRate(otherAccepted.get()), std::optional<std::uint64_t>(none));
        QCOMPARE(pacer.pacedCount(), std::size_t{2});

        // A connection made later is found by the next look; the paced ones are not counted twice.
        const Fd late = connectTo(portOf(router.get()));
        const Fd lateAccepted(::accept(router.get(), nullptr, nullptr));
        pacer.refresh();
        QCOMPARE(ConnectionPacer::pacingRate(lateAccepted.get()), std::optional<std::uint64_t>(12'500'000));
        QCOMPARE(pacer.pacedCount(), std::size_t{3});
    }

    // ZeroMQ's own connections, which the round cannot name: a ROUTER and a DEALER in this process, so
    // both ends are found (the accepted one by the ROUTER's port, the other by the aggregator's endpoint).
    void findsZeroMqConnections() {
        zmq::context_t context;
        const SocketFactory sockets(context, std::string(32, 'P'));
        zmq::socket_t router = sockets.bindRouter("tcp://127.0.0.1:0");
        const std::string bound = SocketFactory::boundEndpoint(router);
        zmq::socket_t dealer = sockets.connectDealer(bound, {});
        // A message through proves the connection is up.
        dealer.send(zmq::str_buffer("hello"), zmq::send_flags::none);
        zmq::message_t route, body;
        QVERIFY(router.recv(route, zmq::recv_flags::none));
        QVERIFY(router.recv(body, zmq::recv_flags::none));

        ConnectionPacer pacer(1e6, bound, {bound});
        pacer.refresh();
        QCOMPARE(pacer.pacedCount(), std::size_t{2});
    }

    void doesNothingWithoutARateOrEndpoints() {
        const Fd router = listenOnLoopback();
        const Fd member = connectTo(portOf(router.get()));
        const Fd accepted(::accept(router.get(), nullptr, nullptr));
        const std::uint64_t none = unlimited();

        ConnectionPacer noRate(0.0, endpoint(portOf(router.get())), {});
        noRate.refresh();
        ConnectionPacer nonsense(std::nan(""), endpoint(portOf(router.get())), {});
        nonsense.refresh();
        // Endpoints it cannot read are skipped, not guessed at.
        ConnectionPacer unreadable(1e6, "ipc:///tmp/x", {"tcp://127.0.0.1", "tcp://127.0.0.1:99999", ""});
        unreadable.refresh();
        QCOMPARE(noRate.pacedCount() + nonsense.pacedCount() + unreadable.pacedCount(), std::size_t{0});
        QCOMPARE(ConnectionPacer::pacingRate(accepted.get()), std::optional<std::uint64_t>(none));
        QCOMPARE(ConnectionPacer::pacingRate(-1), std::nullopt);
        QCOMPARE(ConnectionPacer::rateFor(1e6), 1.25e6);
    }
};

QTEST_GUILESS_MAIN(TestConnectionPacer)
#include "tst_connection_pacer.moc"
