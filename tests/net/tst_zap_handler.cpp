// ZapHandler with CURVE sockets from SocketFactory over real TCP on loopback: an admitted key gets in and
// its messages carry the admitted peer id; unknown, expired and banned keys, a wrong server key and a
// context without a handler get nothing through; the admission domain lets any key in under its own hex;
// and hand-made ZAP requests are refused without harming the handler.
#include "core/net/SocketFactory.h"
#include "core/net/ZapHandler.h"

#include <QByteArray>
#include <QtTest>
#include <zmq_addon.hpp>

#include <chrono>
#include <optional>

using namespace sahaj::net;
using namespace std::chrono_literals;

namespace {

constexpr auto kDelivery = 10s;         // generous: an admitted message must arrive well within this
constexpr auto kRefusalWindow = 1500ms; // how long a refused client is watched for a message slipping in
constexpr int kCounterTimeoutMs = 5000;

const std::string kServerId(32, 's');
const std::string kClientId(32, 'c');
const std::string kOtherClientId(32, 'o');
const std::string kRunDomain = ZapHandler::runDomain("test-run");

struct KeyPair {
    std::string publicKey;
    std::string secretKey;
};

std::string z85Decode(const char* text) {
    std::string bytes(32, '\0');
    if (!zmq_z85_decode(reinterpret_cast<uint8_t*>(bytes.data()), text))
        throw std::runtime_error("invalid Z85 key");
    return bytes;
}

KeyPair curveKeyPair() {
    char publicKey[41];
    char secretKey[41];
    if (zmq_curve_keypair(publicKey, secretKey) != 0)
        throw zmq::error_t();
    return {z85Decode(publicKey), z85Decode(secretKey)};
}

std::string hex(const std::string& bytes) {
    return QByteArray::fromStdString(bytes).toHex().toStdString();
}

std::int64_t nowMs() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

// A server: a context with its ZAP handler and a CURVE ROUTER on a free loopback port.
struct Server {
    explicit Server(const std::string& zapDomain = kRunDomain, SocketFactory::Options options = {})
        : factory(context, kServerId, options,
                  SocketFactory::Curve{keys.publicKey, keys.secretKey, kRunDomain}),
          router(factory.bindRouter("tcp://127.0.0.1:0", zapDomain)),
          endpoint(SocketFactory::boundEndpoint(router)) {}

    zmq::context_t context;
    // A short wait for admissions keeps the refusal cases quick; waitingHandshakeGetsInOnceAdmitted
    // covers the wait itself.
    ZapHandler zap{context, kRunDomain, 300ms};
    KeyPair keys = curveKeyPair();
    SocketFactory factory;
    zmq::socket_t router;
    std::string endpoint;
};

// A client on its own context, as a remote peer would be.
struct Client {
    explicit Client(const std::string& peerId)
        : factory(context, peerId, SocketFactory::Options{},
                  SocketFactory::Curve{keys.publicKey, keys.secretKey, kRunDomain}) {}

    zmq::context_t context;
    KeyPair keys = curveKeyPair();
    SocketFactory factory;
};

// Sends one message from `dealer` as soon as it may be queued (ZMQ_IMMEDIATE holds it back until a
// connection has passed its handshake) and waits until `timeout` for it at `router`. Returns its payload
// frame, or nothing when none arrived.
std::optional<zmq::message_t> deliver(zmq::socket_t& dealer, zmq::socket_t& router,
                                      std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    bool sent = false;
    while (std::chrono::steady_clock::now() < deadline) {
        if (!sent)
            sent = dealer.send(zmq::str_buffer("hello"), zmq::send_flags::dontwait).has_value();
        zmq::pollitem_t item{router.handle(), 0, ZMQ_POLLIN, 0};
        zmq::poll(&item, 1, 20ms);
        if (item.revents & ZMQ_POLLIN) {
            std::vector<zmq::message_t> frames;
            (void)zmq::recv_multipart(router, std::back_inserter(frames), zmq::recv_flags::dontwait);
            if (frames.size() != 2)
                return std::nullopt;
            return std::move(frames[1]);
        }
    }
    return std::nullopt;
}

// Sends `frames` to the context's ZAP endpoint as libzmq would, and returns the reply (empty when none
// came within the deadline).
std::vector<std::string> askZap(zmq::context_t& context, const std::vector<std::string>& frames) {
    zmq::socket_t requester(context, zmq::socket_type::req);
    requester.set(zmq::sockopt::linger, 0);
    requester.connect("inproc://zeromq.zap.01");
    for (std::size_t i = 0; i < frames.size(); ++i)
        requester.send(zmq::buffer(frames[i]),
                       i + 1 < frames.size() ? zmq::send_flags::sndmore : zmq::send_flags::none);
    zmq::pollitem_t item{requester.handle(), 0, ZMQ_POLLIN, 0};
    zmq::poll(&item, 1, 5000ms);
    std::vector<std::string> reply;
    if (!(item.revents & ZMQ_POLLIN))
        return reply;
    std::vector<zmq::message_t> messages;
    (void)zmq::recv_multipart(requester, std::back_inserter(messages));
    for (const zmq::message_t& message : messages)
        reply.push_back(message.to_string());
    return reply;
}

std::vector<std::string> curveRequest(const std::string& domain, const std::string& key) {
    return {"1.0", "1", domain, "127.0.0.1", "", "CURVE", key};
}

} // namespace

class TestZapHandler : public QObject {
    Q_OBJECT

    // Connects a client with `client`'s keys and expects its message refused: nothing arrives and the
    // handler counted a refusal.
    void expectRefused(Server& server, Client& client) {
        const std::uint64_t refusedBefore = server.zap.refused();
        zmq::socket_t dealer = client.factory.connectDealer(server.endpoint, server.keys.publicKey);
        QVERIFY(!deliver(dealer, server.router, kRefusalWindow).has_value());
        QTRY_VERIFY_WITH_TIMEOUT(server.zap.refused() > refusedBefore, kCounterTimeoutMs);
    }

private Q_SLOTS:
    // A socket's frame limit is the payload's: CURVE wraps every frame in a MESSAGE command that libzmq
    // checks against ZMQ_MAXMSGSIZE, so a frame of exactly the limit must still arrive (a state chunk of
    // exactly 4 MiB was dropped when the limit was set to the payload alone), and one beyond the
    // allowance must not.
    void aFrameOfExactlyTheLimitArrivesUnderCurve() {
        SocketFactory::Options options;
        options.routerMaxMessageBytes = 64 * 1024;
        Server server(kRunDomain, options);
        Client client(kClientId);
        server.zap.admit(client.keys.publicKey, kClientId, nowMs() + 60000);
        zmq::socket_t dealer = client.factory.connectDealer(server.endpoint, server.keys.publicKey);
        QVERIFY(deliver(dealer, server.router, kDelivery).has_value()); // the connection is up
        const std::string atLimit(static_cast<std::size_t>(options.routerMaxMessageBytes), 'x');
        QVERIFY(dealer.send(zmq::buffer(atLimit), zmq::send_flags::none));
        zmq::pollitem_t item{server.router.handle(), 0, ZMQ_POLLIN, 0};
        QVERIFY(zmq::poll(&item, 1, kDelivery) == 1);
        std::vector<zmq::message_t> frames;
        (void)zmq::recv_multipart(server.router, std::back_inserter(frames));
        QCOMPARE(frames.size(), std::size_t(2));
        QCOMPARE(frames[1].size(), atLimit.size());
        const std::string beyond(atLimit.size() + SocketFactory::kTransportOverheadBytes + 1, 'y');
        QVERIFY(dealer.send(zmq::buffer(beyond), zmq::send_flags::none));
        QVERIFY(zmq::poll(&item, 1, 1000ms) == 0);
    }

    void admittedKeyCarriesItsPeerId() {
        Server server;
        Client client(kClientId);
        QVERIFY(server.factory.secure());
        server.zap.admit(client.keys.publicKey, kClientId, nowMs() + 60000);
        zmq::socket_t dealer = client.factory.connectDealer(server.endpoint, server.keys.publicKey);
        const auto payload = deliver(dealer, server.router, kDelivery);
        QVERIFY(payload.has_value());
        QCOMPARE(payload->to_string(), std::string("hello"));
        QCOMPARE(SocketFactory::authenticatedUser(*payload), hex(kClientId));
        QVERIFY(server.zap.accepted() >= 1);
    }

    void unknownKeyIsRefused() {
        Server server;
        Client client(kClientId);
        expectRefused(server, client);
        QCOMPARE(server.zap.accepted(), std::uint64_t(0));
    }

    void waitingHandshakeGetsInOnceAdmitted() {
        // A key admitted a moment after its handshake began (the peer published its token, the handler's
        // owner has not read it yet) gets in without reconnecting: libzmq does not retry a refused
        // handshake, so the handler holds the answer for a while instead of refusing at once.
        zmq::context_t context;
        ZapHandler zap(context, kRunDomain); // the default wait
        const KeyPair keys = curveKeyPair();
        const SocketFactory factory(context, kServerId, SocketFactory::Options{},
                                    SocketFactory::Curve{keys.publicKey, keys.secretKey, kRunDomain});
        zmq::socket_t router = factory.bindRouter("tcp://127.0.0.1:0");
        Client client(kClientId);
        zmq::socket_t dealer =
            client.factory.connectDealer(SocketFactory::boundEndpoint(router), keys.publicKey);
        QTest::qWait(1000);
        QCOMPARE(zap.accepted() + zap.refused(), std::uint64_t(0)); // waiting, not answered
        zap.admit(client.keys.publicKey, kClientId, nowMs() + 60000);
        const auto payload = deliver(dealer, router, kDelivery);
        QVERIFY(payload.has_value());
        QCOMPARE(SocketFactory::authenticatedUser(*payload), hex(kClientId));
        QCOMPARE(zap.refused(), std::uint64_t(0));
    }

    void keyAdmittedAfterTheWaitGetsInOnReconnect() {
        // The wait ran out unanswered; the client's handshake times out, it reconnects on its own, and
        // by then its key is admitted.
        Server server;
        Client client(kClientId);
        zmq::socket_t dealer = client.factory.connectDealer(server.endpoint, server.keys.publicKey);
        QTRY_VERIFY_WITH_TIMEOUT(server.zap.refused() >= 1, kCounterTimeoutMs); // the wait ran out
        server.zap.admit(client.keys.publicKey, kClientId, nowMs() + 60000);
        const auto payload = deliver(dealer, server.router, 20s);
        QVERIFY(payload.has_value());
        QCOMPARE(SocketFactory::authenticatedUser(*payload), hex(kClientId));
    }

    // Admitted is not trusted (row 21): strangers flood the handler with handshakes of keys nobody
    // admitted until its waiting list is full. An honest newcomer that connects then is not refused (libzmq
    // never retries a refused handshake: it was shut out for good) but left unanswered: its handshake times
    // out, it reconnects, and once its key is admitted it gets in.
    void aFloodOfStrangersShutsNobodyOutForGood() {
        zmq::context_t context;
        ZapHandler zap(context, kRunDomain, 10s); // the flood waits longer than the test
        const KeyPair keys = curveKeyPair();
        const SocketFactory factory(context, kServerId, SocketFactory::Options{},
                                    SocketFactory::Curve{keys.publicKey, keys.secretKey, kRunDomain});
        zmq::socket_t router = factory.bindRouter("tcp://127.0.0.1:0");
        zmq::socket_t flood(context, zmq::socket_type::dealer);
        flood.set(zmq::sockopt::linger, 0);
        flood.connect("inproc://zeromq.zap.01");
        for (std::size_t i = 0; i < ZapHandler::kMaxWaiting; ++i) {
            std::vector<std::string> frames{""};
            for (const std::string& frame : curveRequest(kRunDomain, curveKeyPair().publicKey))
                frames.push_back(frame);
            for (std::size_t f = 0; f < frames.size(); ++f)
                flood.send(zmq::buffer(frames[f]),
                           f + 1 < frames.size() ? zmq::send_flags::sndmore : zmq::send_flags::none);
        }
        QTest::qWait(500);
        QCOMPARE(zap.accepted() + zap.refused(), std::uint64_t(0)); // all waiting

        SocketFactory::Options quick;
        quick.handshakeMs = 1000; // the newcomer gives an unanswered handshake up soon and reconnects
        zmq::context_t clientContext;
        const KeyPair clientKeys = curveKeyPair();
        const SocketFactory client(
            clientContext, kClientId, quick,
            SocketFactory::Curve{clientKeys.publicKey, clientKeys.secretKey, kRunDomain});
        zmq::socket_t dealer = client.connectDealer(SocketFactory::boundEndpoint(router), keys.publicKey);
        QTRY_VERIFY_WITH_TIMEOUT(zap.refused() >= 1, kCounterTimeoutMs); // its first handshake: no room
        zap.admit(clientKeys.publicKey, kClientId, nowMs() + 60000);
        const auto payload = deliver(dealer, router, 20s);
        QVERIFY2(payload.has_value(), "the newcomer never got in");
        QCOMPARE(SocketFactory::authenticatedUser(*payload), hex(kClientId));
    }

    void expiredAdmissionIsRefused() {
        Server server;
        Client client(kClientId);
        server.zap.admit(client.keys.publicKey, kClientId, nowMs() - 1000);
        expectRefused(server, client);
        QCOMPARE(server.zap.accepted(), std::uint64_t(0));
    }

    void bannedPeerIsRefused() {
        Server server;
        Client client(kClientId);
        const std::int64_t now = nowMs();
        server.zap.admit(client.keys.publicKey, kClientId, now + 60000);
        server.zap.ban(kClientId, now + 30000);
        QVERIFY(server.zap.isBanned(kClientId, now));
        QVERIFY(!server.zap.isBanned(kClientId, now + 30000));
        QVERIFY(!server.zap.isBanned(kOtherClientId, now));
        // A shorter ban later does not lift the longer one.
        server.zap.ban(kClientId, now + 1000);
        QVERIFY(server.zap.isBanned(kClientId, now + 20000));
        expectRefused(server, client);
        QCOMPARE(server.zap.accepted(), std::uint64_t(0));
    }

    void admissionDomainAcceptsAnyKey() {
        Server server(ZapHandler::kAdmissionDomain);
        Client stranger(kClientId);
        zmq::socket_t dealer = stranger.factory.connectDealer(server.endpoint, server.keys.publicKey);
        const auto payload = deliver(dealer, server.router, kDelivery);
        QVERIFY(payload.has_value());
        QCOMPARE(SocketFactory::authenticatedUser(*payload), hex(stranger.keys.publicKey));
    }

    void wrongServerKeyGetsNothingThrough() {
        Server server;
        Client client(kClientId);
        server.zap.admit(client.keys.publicKey, kClientId, nowMs() + 60000);
        const KeyPair impostor = curveKeyPair();
        zmq::socket_t dealer = client.factory.connectDealer(server.endpoint, impostor.publicKey);
        QVERIFY(!deliver(dealer, server.router, kRefusalWindow).has_value());
        // The handshake fails before any question to the handler.
        QCOMPARE(server.zap.accepted(), std::uint64_t(0));
    }

    void contextWithoutHandlerRefuses() {
        zmq::context_t context;
        const KeyPair keys = curveKeyPair();
        SocketFactory factory(context, kServerId, SocketFactory::Options{},
                              SocketFactory::Curve{keys.publicKey, keys.secretKey, kRunDomain});
        zmq::socket_t router = factory.bindRouter("tcp://127.0.0.1:0");
        Client client(kClientId);
        zmq::socket_t dealer =
            client.factory.connectDealer(SocketFactory::boundEndpoint(router), keys.publicKey);
        QVERIFY(!deliver(dealer, router, kRefusalWindow).has_value());
    }

    void secondHandlerOnOneContextThrows() {
        Server server;
        QVERIFY_THROWS_EXCEPTION(zmq::error_t, ZapHandler(server.context, kRunDomain));
        // The first one still answers (an unknown domain: refused at once).
        const auto reply = askZap(server.context, curveRequest("another-domain", std::string(32, 'k')));
        QCOMPARE(reply.size(), std::size_t(6));
        QCOMPARE(reply[2], std::string("400"));
    }

    void keyRebindsToNewerPeerId() {
        Server server;
        Client client(kOtherClientId);
        server.zap.admit(client.keys.publicKey, kClientId, nowMs() + 60000);
        server.zap.admit(client.keys.publicKey, kOtherClientId, nowMs() + 120000);
        zmq::socket_t dealer = client.factory.connectDealer(server.endpoint, server.keys.publicKey);
        const auto payload = deliver(dealer, server.router, kDelivery);
        QVERIFY(payload.has_value());
        QCOMPARE(SocketFactory::authenticatedUser(*payload), hex(kOtherClientId));
    }

    void zapRepliesFollowTheAdmissionList() {
        Server server;
        const std::string key(32, 'k');
        const std::string shortLived(32, 'e');
        const std::int64_t expiry = nowMs() + 200;
        server.zap.admit(key, kClientId, nowMs() + 60000);
        server.zap.admit(shortLived, kOtherClientId, expiry);

        auto reply = askZap(server.context, curveRequest(kRunDomain, key));
        QCOMPARE(reply, (std::vector<std::string>{"1.0", "1", "200", "OK", hex(kClientId), ""}));
        reply = askZap(server.context, curveRequest(ZapHandler::kAdmissionDomain, key));
        QCOMPARE(reply, (std::vector<std::string>{"1.0", "1", "200", "OK", hex(key), ""}));
        reply = askZap(server.context, curveRequest("another-domain", key));
        QCOMPARE(reply.size(), std::size_t(6));
        QCOMPARE(reply[2], std::string("400"));
        QCOMPARE(reply[4], std::string());

        // An admission that expires after it was made is refused from then on.
        QTRY_VERIFY_WITH_TIMEOUT(nowMs() > expiry, kCounterTimeoutMs);
        reply = askZap(server.context, curveRequest(kRunDomain, shortLived));
        QCOMPARE(reply.size(), std::size_t(6));
        QCOMPARE(reply[2], std::string("400"));
        QVERIFY2(reply[3].find("expired") != std::string::npos, reply[3].c_str());
    }

    void malformedRequestsAreRefused() {
        Server server;
        const std::string key(32, 'k');
        server.zap.admit(key, kClientId, nowMs() + 60000);
        const std::vector<std::vector<std::string>> requests = {
            {"1.0"},
            {"1.0", "7", kRunDomain, "127.0.0.1", ""},
            {"2.0", "7", kRunDomain, "127.0.0.1", "", "CURVE", key},
            {"1.0", "7", kRunDomain, "127.0.0.1", "", "NULL"},
            {"1.0", "7", kRunDomain, "127.0.0.1", "", "PLAIN", "user", "password"},
            {"1.0", "7", kRunDomain, "127.0.0.1", "", "CURVE", "short"},
            {"1.0", "7", kRunDomain, "127.0.0.1", "", "CURVE", key, "extra"},
            std::vector<std::string>(40, "1.0"),
        };
        for (const auto& request : requests) {
            // Every request gets an answer: libzmq would otherwise wait out its handshake for nothing.
            const auto reply = askZap(server.context, request);
            QCOMPARE(reply.size(), std::size_t(6));
            QCOMPARE(reply[0], std::string("1.0"));
            QCOMPARE(reply[2], std::string("400"));
            QVERIFY(!reply[3].empty());
            QCOMPARE(reply[4], std::string());
            if (request.size() > 1)
                QCOMPARE(reply[1], request[1]);
        }
        QCOMPARE(server.zap.accepted(), std::uint64_t(0));

        // The handler still admits afterwards.
        Client client(kClientId);
        server.zap.admit(client.keys.publicKey, kClientId, nowMs() + 60000);
        zmq::socket_t dealer = client.factory.connectDealer(server.endpoint, server.keys.publicKey);
        const auto payload = deliver(dealer, server.router, kDelivery);
        QVERIFY(payload.has_value());
        QCOMPARE(SocketFactory::authenticatedUser(*payload), hex(kClientId));
    }

    void factoryChecksItsKeys() {
        zmq::context_t context;
        const KeyPair keys = curveKeyPair();
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 SocketFactory(context, kClientId, SocketFactory::Options{},
                                               SocketFactory::Curve{"short", keys.secretKey, kRunDomain}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 SocketFactory(context, kClientId, SocketFactory::Options{},
                                               SocketFactory::Curve{keys.publicKey, keys.secretKey, ""}));
        const SocketFactory secure(context, kClientId, SocketFactory::Options{},
                                   SocketFactory::Curve{keys.publicKey, keys.secretKey, kRunDomain});
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, secure.connectDealer("tcp://127.0.0.1:1"));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, secure.connectDealer("tcp://127.0.0.1:1", "short"));
        // Without CURVE the server key is ignored, and a plain frame has no user id.
        const SocketFactory plain(context, kClientId);
        QVERIFY(!plain.secure());
        zmq::socket_t dealer = plain.connectDealer("tcp://127.0.0.1:1", "ignored");
        QCOMPARE(SocketFactory::authenticatedUser(zmq::message_t(std::string("x"))), std::string());
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, ZapHandler(context, ""));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, ZapHandler(context, ZapHandler::kAdmissionDomain));
    }
};

QTEST_GUILESS_MAIN(TestZapHandler)
#include "tst_zap_handler.moc"
