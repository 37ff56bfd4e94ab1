// Reachability found, not configured: the coordinator's token endpoint dials an admitted volunteer back
// (ReachabilityDialer, over real CURVE sockets and real TCP dials on loopback), and the volunteer takes
// client mode when the others cannot reach it (ReachabilityCheck). The dial goes only to the address the
// request came from, only for admitted peers, one at a time per peer and a bounded number in all; the
// validator refuses malformed reachability messages.
#include "core/admission/ReachabilityClient.h"
#include "core/admission/ReachabilityDialer.h"
#include "core/admission/TokenServer.h"
#include "core/engine/ReachabilityCheck.h"
#include "core/net/DialAttempts.h"
#include "core/net/MessageValidator.h"
#include "core/net/ProtocolViolation.h"
#include "core/net/TcpListener.h"
#include "core/net/ZapHandler.h"
#include "core/security/AccessToken.h"
#include "core/security/CurveKeyPair.h"
#include "core/security/PeerIdentity.h"
#include "core/security/RevocationFile.h"
#include "core/security/TokenAuthority.h"
#include "tests/admission/AdmittedVolunteer.h"

#include <QDateTime>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <memory>
#include <mutex>

using namespace sahaj;
using namespace sahaj::admission;
using namespace sahaj::security;
using namespace std::chrono_literals;

namespace reachability {

const QString kRun = QStringLiteral("bn-reach-1");

std::string stdString(const QByteArray& bytes) {
    return std::string(bytes.constData(), std::size_t(bytes.size()));
}

// A volunteer of this run (with a token copied from someone else when ownCurveKey is false).
struct Volunteer : test::AdmittedVolunteer {
    explicit Volunteer(const PeerIdentity& organiser, bool ownCurveKey = true)
        : AdmittedVolunteer(organiser, kRun, ownCurveKey) {}
};

// A port nothing listens on: one the system just handed out and took back.
std::uint16_t closedPort() {
    const net::TcpListener listener(QStringLiteral("127.0.0.1"), 0);
    return listener.port();
}

wire::Envelope reachabilityRequest(const Volunteer& v, std::uint16_t port, std::uint64_t requestId = 1) {
    wire::Envelope envelope;
    envelope.set_sender(stdString(v.identity->id().bytes()));
    envelope.set_request_id(requestId);
    envelope.mutable_reachability_request()->set_port(port);
    envelope.mutable_reachability_request()->set_token(stdString(v.token));
    return envelope;
}

std::string connectionUserOf(const Volunteer& v) {
    return v.curve->publicKey().toHex().toStdString();
}

// The dials `dialer` finishes within `patience`.
std::vector<ReachabilityDialer::Finished> waitForDials(ReachabilityDialer& dialer, std::size_t count,
                                                       std::chrono::milliseconds patience = 5s) {
    std::vector<ReachabilityDialer::Finished> done;
    const auto until = std::chrono::steady_clock::now() + patience;
    while (done.size() < count && std::chrono::steady_clock::now() < until)
        for (auto& finished : dialer.finished(50ms))
            done.push_back(std::move(finished));
    return done;
}

void expectViolation(const wire::Envelope& envelope, const char* needle) {
    try {
        net::MessageValidator::validate(envelope, {});
        QFAIL(qPrintable(QStringLiteral("no violation; expected one about %1").arg(needle)));
    } catch (const net::ProtocolViolation& e) {
        QVERIFY2(QString::fromUtf8(e.what()).contains(QLatin1String(needle)), e.what());
    }
}

} // namespace reachability

using namespace reachability;

class TestReachability : public QObject {
    Q_OBJECT

    zmq::context_t serverContext_;
    net::ZapHandler zap_{serverContext_, net::ZapHandler::runDomain(kRun.toStdString())};
    const PeerIdentity organiser_ = PeerIdentity::generate();
    const CurveKeyPair serverCurve_ = CurveKeyPair::generate();
    std::mutex logMutex_; // the server's thread writes the log
    QStringList log_;
    std::unique_ptr<TokenServer> server_;
    QTemporaryDir dir_;
    const Volunteer revoked_{organiser_}; // on the organiser's revocation list, its token still valid

    // Asks the endpoint, as `v`, to dial `port` back.
    ReachabilityClient::Answer ask(const Volunteer& v, std::uint16_t port) {
        zmq::context_t context;
        const net::SocketFactory sockets(context, stdString(v.identity->id().bytes()), {},
                                         net::SocketFactory::Curve{stdString(v.curve->publicKey()),
                                                                   stdString(v.curve->secretKey()),
                                                                   net::ZapHandler::kAdmissionDomain});
        return ReachabilityClient::ask(sockets, server_->endpoint(), stdString(serverCurve_.publicKey()),
                                       *v.identity, kRun, v.token, port, 10s);
    }

    bool logged(const QString& needle) {
        const std::lock_guard lock(logMutex_);
        return !log_.filter(needle).isEmpty();
    }

private Q_SLOTS:
    void initTestCase() {
        TokenAuthority::Options options;
        options.runId = kRun;
        TokenAuthority authority = TokenAuthority::fromPolicy("open", organiser_, options);
        QFile revocations(dir_.filePath("revocations"));
        QVERIFY(revocations.open(QIODevice::WriteOnly));
        revocations.write(revoked_.identity->id().toHex().toLatin1() + "\n");
        revocations.close();
        authority.setRevocations(RevocationFile(revocations.fileName()));
        server_ = std::make_unique<TokenServer>(
            serverContext_,
            net::SocketFactory::Curve{stdString(serverCurve_.publicKey()),
                                      stdString(serverCurve_.secretKey()), ""},
            "tcp://127.0.0.1:0", std::move(authority), organiser_.id(), kRun, [this](const QString& line) {
                const std::lock_guard lock(logMutex_);
                log_ << line;
            });
    }

    void cleanupTestCase() { server_.reset(); }

    void aListeningPeerIsReachableAtItsOwnAddress() {
        const Volunteer v(organiser_);
        const net::TcpListener listener(QStringLiteral("127.0.0.1"), 0);
        const ReachabilityClient::Answer answer = ask(v, listener.port());
        QVERIFY2(answer.reachable, qPrintable(answer.detail));
        QCOMPARE(answer.observedAddress, QStringLiteral("127.0.0.1"));
        QVERIFY(logged(QStringLiteral("dialled peer %1 back at 127.0.0.1 port %2: reachable")
                           .arg(QString::fromLatin1(v.identity->id().bytes().toHex()))
                           .arg(listener.port())));
    }

    void aPortNobodyListensOnIsNot() {
        const Volunteer v(organiser_);
        const ReachabilityClient::Answer answer = ask(v, closedPort());
        QVERIFY(!answer.reachable);
        QCOMPARE(answer.observedAddress, QStringLiteral("127.0.0.1"));
        QVERIFY2(answer.detail.contains(QLatin1String("refused")), qPrintable(answer.detail));
    }

    // Fails without AdmittedToken's check in ReachabilityDialer::request: the stranger is dialled.
    void onlyAdmittedPeersAreDialledBack() {
        const Volunteer stranger(organiser_, /*ownCurveKey=*/false); // a token copied from someone else
        const net::TcpListener listener(QStringLiteral("127.0.0.1"), 0);
        try {
            ask(stranger, listener.port());
            QFAIL("a peer whose token names another CURVE key was dialled back");
        } catch (const std::runtime_error& e) {
            QVERIFY2(QString::fromUtf8(e.what()).contains(QLatin1String("not admitted")), e.what());
        }
        const PeerIdentity otherOrganiser = PeerIdentity::generate();
        const Volunteer forged(otherOrganiser);
        try {
            ask(forged, listener.port());
            QFAIL("a peer whose token another organiser signed was dialled back");
        } catch (const std::runtime_error& e) {
            QVERIFY2(QString::fromUtf8(e.what()).contains(QLatin1String("not admitted")), e.what());
        }
    }

    // Fails without the endpoint's revocation check: the revoked peer's unexpired token is dialled back.
    void aRevokedPeerIsNotDialledBack() {
        const net::TcpListener listener(QStringLiteral("127.0.0.1"), 0);
        try {
            ask(revoked_, listener.port());
            QFAIL("a revoked peer was dialled back");
        } catch (const std::runtime_error& e) {
            QVERIFY2(
                QString::fromUtf8(e.what()).contains(QLatin1String("the run's organiser revoked this peer")),
                e.what());
        }
    }

    // The request names a port only: the address is the connection's, whatever the requester would like
    // dialled. An IPv4-mapped IPv6 connection address is dialled as its IPv4 form.
    void theDialerDialsTheAddressTheRequestCameFrom() {
        const Volunteer v(organiser_);
        const net::TcpListener listener(QStringLiteral("127.0.0.1"), 0);
        ReachabilityDialer dialer(organiser_.id(), kRun);
        QVERIFY(!dialer.request(reachabilityRequest(v, listener.port(), 7), connectionUserOf(v),
                                "::ffff:127.0.0.1", "route-7", QDateTime::currentSecsSinceEpoch()));
        const auto done = waitForDials(dialer, 1);
        QCOMPARE(done.size(), std::size_t(1));
        QCOMPARE(done.front().route, std::string("route-7"));
        QCOMPARE(done.front().requestId, std::uint64_t(7));
        QCOMPARE(done.front().reply.observed_address(), std::string("127.0.0.1"));
        QVERIFY(done.front().reply.reachable());
        QVERIFY(!dialer.busy());
    }

    // Fails without the per-peer and overall bounds: every request would start a dial.
    void dialsAreBoundedPerPeerAndInAll() {
        const Volunteer first(organiser_);
        const Volunteer second(organiser_);
        const std::uint16_t port = closedPort();
        ReachabilityDialer dialer(organiser_.id(), kRun, 3000ms, /*maxPending=*/1);
        const qint64 now = QDateTime::currentSecsSinceEpoch();
        QVERIFY(!dialer.request(reachabilityRequest(first, port), connectionUserOf(first), "127.0.0.1", "a",
                                now));
        const auto again =
            dialer.request(reachabilityRequest(first, port), connectionUserOf(first), "127.0.0.1", "a", now);
        QVERIFY(again);
        QVERIFY2(QString::fromStdString(again->refusal()).contains(QLatin1String("being dialled already")),
                 again->refusal().c_str());
        const auto full = dialer.request(reachabilityRequest(second, port), connectionUserOf(second),
                                         "127.0.0.1", "b", now);
        QVERIFY(full);
        QVERIFY2(QString::fromStdString(full->refusal()).contains(QLatin1String("dialling many peers")),
                 full->refusal().c_str());
        QCOMPARE(waitForDials(dialer, 1).size(), std::size_t(1));
        // Once the first dial ended, the second peer is dialled.
        QVERIFY(!dialer.request(reachabilityRequest(second, port), connectionUserOf(second), "127.0.0.1", "b",
                                now));
    }

    void aDialToANonNumericAddressEndsAtOnce() {
        net::DialAttempts dials(4);
        const std::optional<std::uint64_t> id = dials.start(QStringLiteral("example.org"), 80, 1000ms);
        QVERIFY(id);
        const auto outcomes = dials.poll();
        QCOMPARE(outcomes.size(), std::size_t(1));
        QCOMPARE(outcomes.front().id, *id);
        QVERIFY(!outcomes.front().connected);
        QVERIFY2(outcomes.front().detail.contains(QLatin1String("not a numeric")),
                 qPrintable(outcomes.front().detail));
    }

    void theVerdictFollowsWhatTheCoordinatorSaw() {
        using Verdict = engine::Reachability::Verdict;
        const QString local = QStringLiteral("10.1.0.2:4600");
        const auto judge = [&](const QString& observed, bool reachable) {
            return engine::ReachabilityCheck::judge(
                local, {observed, reachable, QStringLiteral("connection refused")});
        };
        QCOMPARE(judge(QStringLiteral("10.1.0.2"), true).verdict, Verdict::Reachable);
        QCOMPARE(judge(QStringLiteral("10.1.0.2"), false).verdict, Verdict::Unreachable);
        QCOMPARE(judge(QStringLiteral("203.0.113.7"), false).verdict, Verdict::BehindNat);
        // A forwarded port reaches it, but the others would dial the address it announces, its own.
        QCOMPARE(judge(QStringLiteral("203.0.113.7"), true).verdict, Verdict::BehindNat);
        QVERIFY(judge(QStringLiteral("203.0.113.7"), false)
                    .summary()
                    .startsWith(QLatin1String("behind NAT: sending only")));
        QVERIFY(!judge(QStringLiteral("10.1.0.2"), true).sendsOnly());
    }

    void theValidatorBoundsReachabilityMessages() {
        const Volunteer v(organiser_);
        wire::Envelope request = reachabilityRequest(v, 0);
        expectViolation(request, "reachability_request.port");
        request.mutable_reachability_request()->set_port(4600);
        request.mutable_reachability_request()->clear_token();
        expectViolation(request, "reachability_request.token");

        wire::Envelope reply;
        reply.mutable_reachability_reply()->set_refusal("busy");
        reply.mutable_reachability_reply()->set_reachable(true);
        expectViolation(reply, "carries no outcome");
        reply.mutable_reachability_reply()->clear_refusal();
        reply.mutable_reachability_reply()->set_observed_address("evil\n[log]");
        expectViolation(reply, "numeric IP address");
        reply.mutable_reachability_reply()->set_observed_address("203.0.113.7");
        net::MessageValidator::validate(reply, {});
    }
};

QTEST_GUILESS_MAIN(TestReachability)
#include "tst_reachability.moc"
