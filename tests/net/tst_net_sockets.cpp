// SocketFactory over real TCP on loopback: a DEALER reaches a ROUTER under its peer id, replies find
// their way back, a ROUTER refuses to send to a peer it does not know, and an oversized frame never
// reaches the application, and a sender that dies while this side's queue is full crashes nothing.
#include "core/net/MessageCodec.h"
#include "core/net/SocketFactory.h"
#include "core/net/WireLimits.h"

#include <QtTest>

#include <thread>

using namespace sahaj::net;
namespace wire = sahaj::wire;
using namespace std::chrono_literals;

namespace {

const std::string kServer(32, 's');
const std::string kClient(32, 'c');

wire::Envelope ping() {
    wire::Envelope envelope;
    envelope.mutable_ping();
    return envelope;
}

} // namespace

class TestNetSockets : public QObject {
    Q_OBJECT

    zmq::context_t context_;

private Q_SLOTS:
    void requestAndReply() {
        SocketFactory server(context_, kServer);
        SocketFactory client(context_, kClient);
        zmq::socket_t router = server.bindRouter("tcp://127.0.0.1:0");
        const std::string endpoint = SocketFactory::boundEndpoint(router);
        QVERIFY2(endpoint.rfind("tcp://127.0.0.1:", 0) == 0 && endpoint != "tcp://127.0.0.1:0",
                 endpoint.c_str());
        zmq::socket_t dealer = client.connectDealer(endpoint);

        const MessageCodec clientCodec("demo", kClient);
        const MessageCodec serverCodec("demo", kServer);
        auto request0 = clientCodec.encode(ping());
        QVERIFY(MessageCodec::send(dealer, request0));
        QVERIFY(request0.empty());
        zmq::message_t route;
        auto frames = MessageCodec::receive(router, 10s, &route);
        QVERIFY(frames.has_value());
        // libzmq names the connection (a peer that named its own could take over another's); the envelope
        // says whom it belongs to.
        QVERIFY(route.size() > 0 && route.to_string() != kClient);
        const WireMessage request = serverCodec.decode(std::move(*frames));
        QCOMPARE(request.envelope.sender(), kClient);
        QVERIFY(request.envelope.has_ping());

        wire::Envelope pong;
        pong.mutable_pong();
        auto pongFrames = serverCodec.encode(pong);
        QVERIFY(MessageCodec::send(router, pongFrames, &route));
        auto reply = MessageCodec::receive(dealer, 10s);
        QVERIFY(reply.has_value());
        QVERIFY(clientCodec.decode(std::move(*reply)).envelope.has_pong());

        // ROUTER_MANDATORY: a reply to a peer that never connected is refused, not silently dropped.
        const zmq::message_t stranger(std::string(32, 'x'));
        auto lost = serverCodec.encode(pong);
        QVERIFY(!MessageCodec::send(router, lost, &stranger));
        QCOMPARE(lost.size(), std::size_t(1)); // still the caller's
        QVERIFY(MessageCodec::trySend(router, lost, &stranger, true) ==
                MessageCodec::SendResult::Unreachable);
        // Nothing else arrived.
        QVERIFY(!MessageCodec::receive(dealer, 200ms).has_value());
    }

    // A peer that sent more than the receive high-water mark and then died, while this side was busy
    // elsewhere: with ZMTP heartbeats on, libzmq 4.3.4 writes a heartbeat on that dead connection and
    // aborts this whole process ("Assertion failed: !_io_error"); it must not (docs/protocol.md, Sockets).
    void aSenderThatDiesWithAFullQueueCrashesNothing() {
        SocketFactory server(context_, kServer);
        zmq::socket_t router = server.bindRouter("tcp://127.0.0.1:0");
        const std::string endpoint = SocketFactory::boundEndpoint(router);
        int sent = 0;
        {
            zmq::context_t senderContext;
            SocketFactory sender(senderContext, kClient);
            zmq::socket_t dealer = sender.connectDealer(endpoint);
            const std::string payload(64 * 1024, 'x');
            // Until both queues are full (the send blocks for 300 ms): the receiver reads nothing meanwhile.
            auto lastSent = std::chrono::steady_clock::now();
            while (std::chrono::steady_clock::now() - lastSent < 300ms) {
                if (dealer.send(zmq::buffer(payload), zmq::send_flags::dontwait)) {
                    ++sent;
                    lastSent = std::chrono::steady_clock::now();
                } else {
                    std::this_thread::sleep_for(10ms);
                }
            }
            dealer.set(zmq::sockopt::linger, 0);
        } // the sender is gone, its connection closed with the receiver's queue full
        QVERIFY2(sent > SocketFactory::Options{}.receiveHighWaterMark, qPrintable(QString::number(sent)));
        // Longer than two of the heartbeat intervals libzmq would have used (2 s): the first writes to the
        // dead connection and meets a reset, the second aborted.
        std::this_thread::sleep_for(5s);
        int received = 0;
        zmq::message_t frame;
        while (router.recv(frame, zmq::recv_flags::dontwait))
            ++received;
        QVERIFY2(received >= SocketFactory::Options{}.receiveHighWaterMark,
                 qPrintable(QString::number(received)));
        // The ROUTER still serves a new peer.
        SocketFactory client(context_, std::string(32, 'n'));
        zmq::socket_t fresh = client.connectDealer(endpoint);
        auto request = MessageCodec("demo", std::string(32, 'n')).encode(ping());
        QVERIFY(MessageCodec::send(fresh, request));
        QVERIFY(MessageCodec::receive(router, 10s).has_value());
    }

    void oversizedFramesAreDropped() {
        SocketFactory server(context_, kServer);
        SocketFactory client(context_, kClient);
        zmq::socket_t router = server.bindRouter("tcp://127.0.0.1:0");
        zmq::socket_t dealer = client.connectDealer(SocketFactory::boundEndpoint(router));
        const MessageCodec codec("demo", kClient);

        // A frame over ZMQ_MAXMSGSIZE makes libzmq drop the connection before the application sees it.
        std::vector<zmq::message_t> data;
        data.emplace_back(WireLimits::kMaxDataFrameBytes + SocketFactory::kTransportOverheadBytes + 1);
        std::vector<zmq::message_t> frames = codec.encode(ping(), std::move(data));
        QVERIFY(MessageCodec::send(dealer, frames));
        QVERIFY(!MessageCodec::receive(router, 2s).has_value());
    }
};

QTEST_GUILESS_MAIN(TestNetSockets)
#include "tst_net_sockets.moc"
