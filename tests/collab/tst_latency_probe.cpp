// The peer map's latency: a peer listening on loopback gets a figure (the kernel's handshake round trip),
// one whose port is closed, one without an endpoint and this peer itself get none, figures of peers that
// left are dropped; a peer whose port refuses (killed) loses its figure and is listed as silent.
#include "core/collab/LatencyProbe.h"

#include <QElapsedTimer>
#include <QTest>

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

using sahaj::collab::LatencyProbe;
using sahaj::collab::PeerAnnouncement;

namespace {

// A listening TCP socket on 127.0.0.1, on a port the system chose.
struct Listener {
    int fd = -1;
    int port = 0;

    Listener() {
        fd = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        if (::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 || ::listen(fd, 16) != 0)
            return;
        socklen_t length = sizeof address;
        ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length);
        port = ntohs(address.sin_port);
    }
    ~Listener() { ::close(fd); }
};

PeerAnnouncement peer(char id, const std::string& endpoint) {
    PeerAnnouncement announcement;
    announcement.peerId = std::string(32, id);
    announcement.endpoint = endpoint;
    return announcement;
}

std::map<std::string, double> measure(LatencyProbe& probe, const std::vector<PeerAnnouncement>& peers) {
    probe.start(peers, std::string(32, 's'), std::chrono::milliseconds(2000));
    QElapsedTimer clock;
    clock.start();
    while (probe.running() && clock.elapsed() < 10000) {
        probe.poll();
        QTest::qWait(5);
    }
    return *probe.latencies();
}

} // namespace

class TestLatencyProbe : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void measuresListeningPeersOnly() {
        Listener listening;
        QVERIFY(listening.port > 0);
        int closedPort = 0;
        {
            Listener closed; // bound, then closed: nothing listens there any more
            closedPort = closed.port;
        }
        LatencyProbe probe;
        const auto figures =
            measure(probe, {peer('a', "tcp://127.0.0.1:" + std::to_string(listening.port)),
                            peer('b', "tcp://127.0.0.1:" + std::to_string(closedPort)), peer('c', ""),
                            peer('s', "tcp://127.0.0.1:" + std::to_string(listening.port)),
                            peer('d', "not an endpoint")});
        QCOMPARE(figures.size(), std::size_t(1));
        QVERIFY(figures.count(std::string(32, 'a')) == 1);
        QVERIFY(figures.at(std::string(32, 'a')) > 0.0);
        // The closed port refused: that peer is silent; the others were not dialled, or answered.
        QCOMPARE(*probe.silent(), std::set<std::string>{std::string(32, 'b')});
    }

    // A peer killed after it was measured: its port refuses the next dial, its old figure is dropped (the
    // table showed a dead peer's "0.01 ms" for as long as its record lived), and it is listed as silent
    // until it answers again.
    void aPeerThatStopsAnsweringLosesItsFigure() {
        LatencyProbe probe;
        int port = 0;
        {
            Listener listening;
            port = listening.port;
            const PeerAnnouncement a = peer('a', "tcp://127.0.0.1:" + std::to_string(port));
            QCOMPARE(measure(probe, {a}).size(), std::size_t(1));
            QVERIFY(probe.silent()->empty());
        } // gone
        const PeerAnnouncement a = peer('a', "tcp://127.0.0.1:" + std::to_string(port));
        QCOMPARE(measure(probe, {a}).size(), std::size_t(0));
        QCOMPARE(probe.silent()->size(), std::size_t(1));
        // A peer that is no longer announced is neither measured nor silent.
        measure(probe, {});
        QVERIFY(probe.silent()->empty());
    }

    void dropsPeersThatLeftButNotWhileMeasuring() {
        Listener listening;
        LatencyProbe probe;
        const PeerAnnouncement a = peer('a', "tcp://127.0.0.1:" + std::to_string(listening.port));
        QCOMPARE(measure(probe, {a}).size(), std::size_t(1));
        // A measurement in progress is not restarted, so a new list cannot drop figures half-way.
        probe.start({a}, std::string(32, 's'), std::chrono::milliseconds(2000));
        QVERIFY(probe.running());
        probe.start({}, std::string(32, 's'), std::chrono::milliseconds(2000));
        QCOMPARE(probe.latencies()->size(), std::size_t(1));
        while (probe.running())
            probe.poll();                                    // the budget ends it at the latest
        QCOMPARE(measure(probe, {}).size(), std::size_t(0)); // it left: no stale figure
    }
};

QTEST_GUILESS_MAIN(TestLatencyProbe)
#include "tst_latency_probe.moc"
