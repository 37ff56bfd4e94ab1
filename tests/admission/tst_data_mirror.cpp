// The coordinator's data mirror over real CURVE sockets on loopback: a TokenServer serving a folder's
// files (ShardRequestHandler), volunteers fetching through ShardDownloader with a CoordinatorMirror after
// a manifest place that is down. The whole file comes over in pieces, a download another place began is
// resumed, a peer without a valid token is refused, a mirror that serves wrong bytes is caught by the
// hash, a coordinator without --serve-data says so; the handler alone defers requests over its cap
// instead of blocking, and the validator refuses malformed shard messages.
#include "core/admission/CoordinatorMirror.h"
#include "core/admission/ShardLibrary.h"
#include "core/admission/ShardRequestHandler.h"
#include "core/admission/TokenServer.h"
#include "core/fetch/ShardCache.h"
#include "core/fetch/ShardDownloader.h"
#include "core/net/MessageValidator.h"
#include "core/net/ProtocolViolation.h"
#include "core/net/WireLimits.h"
#include "core/net/ZapHandler.h"
#include "core/run/RunManifest.h"
#include "core/security/AccessToken.h"
#include "core/security/CurveKeyPair.h"
#include "core/security/PeerIdentity.h"
#include "core/security/RevocationFile.h"
#include "core/security/TokenAuthority.h"
#include "tests/admission/AdmittedVolunteer.h"
#include "tests/fetch/ShardFiles.h"

#include <QDateTime>
#include <QDir>
#include <QTemporaryDir>
#include <QTest>

#include <memory>
#include <mutex>
#include <optional>

using namespace sahaj;
using namespace sahaj::admission;
using namespace sahaj::security;
using namespace std::chrono_literals;

namespace {

const QString kRun = QStringLiteral("bn-mirror-1");
// A place that refuses connections at once: the manifest's web server is down.
const QString kDeadPlace = QStringLiteral("http://127.0.0.1:9/data/shard.bin");

std::string stdString(const QByteArray& bytes) {
    return std::string(bytes.constData(), std::size_t(bytes.size()));
}

// A volunteer of this run (another run's with a run id given).
struct Volunteer : test::AdmittedVolunteer {
    explicit Volunteer(const PeerIdentity& organiser, const QString& runId = kRun, bool ownCurveKey = true)
        : AdmittedVolunteer(organiser, runId, ownCurveKey) {}
};

fetch::TransferSettings quickSettings() {
    fetch::TransferSettings settings;
    settings.connectTimeout = 3000ms;
    settings.stallTime = 3s;
    return settings;
}

QString failuresOf(const std::vector<fetch::PlaceFailure>& failures) {
    QStringList lines;
    for (const auto& failure : failures)
        lines << failure.url + ": " + failure.reason;
    return lines.join('\n');
}

} // namespace

class TestDataMirror : public QObject {
    Q_OBJECT

    zmq::context_t serverContext_;
    net::ZapHandler zap_{serverContext_, net::ZapHandler::runDomain(kRun.toStdString())};
    const PeerIdentity organiser_ = PeerIdentity::generate();
    const CurveKeyPair serverCurve_ = CurveKeyPair::generate();
    QTemporaryDir dir_;
    std::mutex logMutex_; // the server's thread writes the log
    QStringList log_;

    // A file of the run, in the served folder under its URL's name.
    run::DataShard served(const QByteArray& bytes) {
        QDir().mkpath(dir_.filePath("served"));
        test::writeBytes(dir_.filePath("served/shard.bin"), bytes);
        return test::shardOf(bytes, {kDeadPlace});
    }

    std::unique_ptr<TokenServer> startServer(const run::DataShard& shard, bool serveData = true,
                                             double bytesPerSecond = 0, const QString& revocations = {}) {
        run::RunManifest manifest;
        manifest.runId = kRun;
        manifest.data = {shard};
        std::optional<ShardRequestHandler> shards;
        if (serveData) {
            QStringList missing;
            ShardLibrary library = ShardLibrary::fromFolder(manifest, dir_.filePath("served"), &missing);
            if (library.size() != 1)
                qFatal("the served folder lacks the shard: %s", qPrintable(missing.join("; ")));
            shards.emplace(std::move(library), organiser_.id(), kRun, bytesPerSecond);
        }
        TokenAuthority::Options options;
        options.runId = kRun;
        TokenAuthority authority = TokenAuthority::fromPolicy("open", organiser_, options);
        if (!revocations.isEmpty())
            authority.setRevocations(RevocationFile(revocations));
        return std::make_unique<TokenServer>(
            serverContext_,
            net::SocketFactory::Curve{stdString(serverCurve_.publicKey()),
                                      stdString(serverCurve_.secretKey()), ""},
            "tcp://127.0.0.1:0", std::move(authority), organiser_.id(), kRun,
            [this](const QString& line) {
                const std::lock_guard lock(logMutex_);
                log_ << line;
            },
            std::move(shards));
    }

    std::shared_ptr<fetch::ShardMirror> mirrorFor(const TokenServer& server, const Volunteer& v) {
        return std::make_shared<CoordinatorMirror>(CoordinatorMirror::Access{
            server.endpoint(), stdString(serverCurve_.publicKey()), v.identity, v.curve, v.token, kRun});
    }

    // The failure of `v`'s download of `shard` from `server`'s mirror into `cache`; nullopt when it was
    // served.
    std::optional<fetch::DownloadFailed> failedFetch(fetch::ShardCache& cache, const run::DataShard& shard,
                                                     const TokenServer& server, const Volunteer& v) {
        try {
            fetch::ShardDownloader(cache, quickSettings()).fetch(shard, {mirrorFor(server, v)});
            return std::nullopt;
        } catch (const fetch::DownloadFailed& e) {
            return e;
        }
    }

    bool logged(const QString& needle) {
        const std::lock_guard lock(logMutex_);
        return !log_.filter(needle).isEmpty();
    }

    // A request as it arrives at the handler, from `v` on a connection of CURVE key `connectionKey`.
    static wire::Envelope shardRequest(const Volunteer& v, const run::DataShard& shard, std::uint64_t offset,
                                       std::uint32_t length) {
        wire::Envelope envelope;
        envelope.set_sender(stdString(v.identity->id().bytes()));
        wire::ShardRequest& body = *envelope.mutable_shard_request();
        body.set_sha256(stdString(QByteArray::fromHex(shard.sha256.toLatin1())));
        body.set_offset(offset);
        body.set_length(length);
        body.set_token(stdString(v.token));
        return envelope;
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY(dir_.isValid()); }

    void servesAnAdmittedPeerTheWholeFile() {
        // Not a whole number of pieces: the last one is short.
        const QByteArray bytes = test::randomBytes(3 * 1024 * 1024 + 12345, 1);
        const run::DataShard shard = served(bytes);
        const auto server = startServer(shard);
        const Volunteer v(organiser_);
        fetch::ShardCache cache(dir_.filePath("cache-whole"), kRun, 1ll << 30);
        std::vector<std::int64_t> progress;
        const fetch::DownloadReport report =
            fetch::ShardDownloader(cache, quickSettings())
                .fetch(shard, {mirrorFor(*server, v)}, {},
                       [&](const fetch::DownloadProgress& p) { progress.push_back(p.done); });
        QCOMPARE(test::readBytes(report.path), bytes);
        QVERIFY2(report.place.startsWith("the coordinator's mirror at tcp://127.0.0.1:"),
                 qPrintable(report.place));
        QCOMPARE(report.bytesReceived, bytes.size());
        // The manifest's place was tried first and failed.
        QCOMPARE(report.failures.size(), std::size_t(1));
        QCOMPARE(report.failures.front().url, kDeadPlace);
        QVERIFY(!progress.empty());
        QCOMPARE(progress.back(), bytes.size());
    }

    void resumesWhatAnotherPlaceBegan() {
        const QByteArray bytes = test::randomBytes(2 * 1024 * 1024 + 777, 2);
        const run::DataShard shard = served(bytes);
        const auto server = startServer(shard);
        const Volunteer v(organiser_);
        fetch::ShardCache cache(dir_.filePath("cache-resume"), kRun, 1ll << 30);
        // What a web server delivered before it went away.
        const qsizetype begun = 1500 * 1000;
        test::writeBytes(cache.partialPath(shard), bytes.left(begun));
        const fetch::DownloadReport report =
            fetch::ShardDownloader(cache, quickSettings()).fetch(shard, {mirrorFor(*server, v)});
        QCOMPARE(test::readBytes(report.path), bytes);
        QCOMPARE(report.bytesResumed, std::int64_t(begun));
        QCOMPARE(report.bytesReceived, bytes.size() - begun);
    }

    void refusesAPeerWithoutAValidToken() {
        const run::DataShard shard = served(test::randomBytes(100000, 3));
        const auto server = startServer(shard);
        // A token of another run, and one for other CURVE keys than the connection's.
        for (const Volunteer& v : {Volunteer(organiser_, QStringLiteral("another-run")),
                                   Volunteer(organiser_, kRun, /*ownCurveKey=*/false)}) {
            fetch::ShardCache cache(dir_.filePath("cache-refused"), kRun, 1ll << 30);
            const std::optional<fetch::DownloadFailed> failure = failedFetch(cache, shard, *server, v);
            QVERIFY2(failure, "a peer without a valid token was served");
            QVERIFY2(failuresOf(failure->failures).contains("refused: not admitted"), failure->what());
            QVERIFY(!failure->diskFull);
        }
        QVERIFY(logged("data mirror: refused peer"));
    }

    void refusesARevokedPeerWhoseTokenIsStillValid() {
        // Fails without the endpoint's revocation check: the revoked peer's token, valid for hours yet,
        // would still fetch the run's data.
        const run::DataShard shard = served(test::randomBytes(100000, 5));
        const Volunteer v(organiser_);
        const QString revocations = dir_.filePath("revocations");
        test::writeBytes(revocations, v.identity->id().toHex().toLatin1() + "\n");
        const auto server = startServer(shard, true, 0, revocations);
        fetch::ShardCache cache(dir_.filePath("cache-revoked"), kRun, 1ll << 30);
        const std::optional<fetch::DownloadFailed> failure = failedFetch(cache, shard, *server, v);
        QVERIFY2(failure, "a revoked peer was served");
        QVERIFY2(failuresOf(failure->failures).contains("the run's organiser revoked this peer"),
                 failure->what());
        QVERIFY(logged("data mirror: refused peer " + v.identity->id().toHex()));
    }

    void aMirrorServingWrongBytesIsCaughtByTheHash() {
        QByteArray bytes = test::randomBytes(1500000, 4);
        const run::DataShard shard = served(bytes);
        const auto server = startServer(shard);
        // The coordinator's copy changes after its check at start: it now serves one flipped byte.
        bytes[700000] = char(bytes[700000] ^ 0x01);
        test::writeBytes(dir_.filePath("served/shard.bin"), bytes);
        const Volunteer v(organiser_);
        fetch::ShardCache cache(dir_.filePath("cache-lying"), kRun, 1ll << 30);
        const std::optional<fetch::DownloadFailed> failure = failedFetch(cache, shard, *server, v);
        QVERIFY2(failure, "wrong bytes from the mirror were accepted");
        QVERIFY2(failuresOf(failure->failures).contains("discarded"), failure->what());
        QVERIFY(!QFile::exists(cache.partialPath(shard)));
        QVERIFY(!cache.find(shard));
    }

    void aCoordinatorWithoutServeDataSaysSo() {
        const run::DataShard shard = served(test::randomBytes(5000, 5));
        const auto server = startServer(shard, /*serveData=*/false);
        const Volunteer v(organiser_);
        fetch::ShardCache cache(dir_.filePath("cache-none"), kRun, 1ll << 30);
        const std::optional<fetch::DownloadFailed> failure = failedFetch(cache, shard, *server, v);
        QVERIFY2(failure, "a coordinator without data served a file");
        QVERIFY2(failuresOf(failure->failures).contains("serves no data"), failure->what());
    }

    void theCapDefersRequestsInsteadOfBlocking() {
        const QByteArray bytes = test::randomBytes(8 * 1024 * 1024, 6);
        const run::DataShard shard = served(bytes);
        run::RunManifest manifest;
        manifest.runId = kRun;
        manifest.data = {shard};
        const double cap = 1024 * 1024; // 1 MiB/s
        ShardRequestHandler handler(ShardLibrary::fromFolder(manifest, dir_.filePath("served")),
                                    organiser_.id(), kRun, cap);
        const Volunteer v(organiser_);
        const std::string connection = v.curve->publicKey().toHex().toStdString();
        const qint64 nowSeconds = QDateTime::currentSecsSinceEpoch();
        const auto t0 = net::TokenBucket::Clock::now();
        const std::uint32_t piece = net::WireLimits::kMaxShardPieceBytes;
        // The burst (4 pieces) is served at once, with the file's bytes, and one more that runs the bucket
        // into debt; the next is told to wait until the debt is paid.
        std::uint64_t offset = 0;
        for (int i = 0; i < 5; ++i, offset += piece) {
            const auto answer =
                handler.answer(shardRequest(v, shard, offset, piece), connection, nowSeconds, t0);
            QVERIFY2(answer.reply.refusal().empty(), answer.reply.refusal().c_str());
            QCOMPARE(answer.reply.retry_after_ms(), 0u);
            QCOMPARE(answer.bytes, bytes.mid(qsizetype(offset), piece));
        }
        const auto deferred =
            handler.answer(shardRequest(v, shard, offset, piece), connection, nowSeconds, t0);
        QVERIFY(deferred.bytes.isEmpty());
        QVERIFY(deferred.reply.retry_after_ms() > 0);
        QVERIFY(deferred.reply.retry_after_ms() <= 1000);
        // Once the debt is paid, it is served.
        const auto later = handler.answer(shardRequest(v, shard, offset, piece), connection, nowSeconds,
                                          t0 + std::chrono::milliseconds(deferred.reply.retry_after_ms()));
        QCOMPARE(later.bytes, bytes.mid(qsizetype(offset), piece));

        // Past the end, an unknown file, the token on another connection: refused, saying why.
        const auto past =
            handler.answer(shardRequest(v, shard, bytes.size(), 1), connection, nowSeconds, t0 + 60s);
        QVERIFY(QString::fromStdString(past.reply.refusal()).contains("past the file"));
        run::DataShard unknown = shard;
        unknown.sha256 = QString(64, QLatin1Char('a'));
        const auto none = handler.answer(shardRequest(v, unknown, 0, 1), connection, nowSeconds, t0 + 60s);
        QVERIFY(QString::fromStdString(none.reply.refusal()).contains("does not serve"));
        const auto stolen =
            handler.answer(shardRequest(v, shard, 0, 1), std::string(64, 'b'), nowSeconds, t0 + 60s);
        QVERIFY(QString::fromStdString(stolen.reply.refusal()).contains("another CURVE key"));
        QVERIFY(stolen.bytes.isEmpty());
    }

    void theValidatorRefusesMalformedShardMessages() {
        const auto refused = [](const wire::Envelope& envelope, std::size_t frames, std::size_t frameBytes) {
            std::vector<zmq::message_t> data;
            for (std::size_t i = 0; i < frames; ++i)
                data.emplace_back(frameBytes);
            try {
                net::MessageValidator::validate(envelope, data);
            } catch (const net::ProtocolViolation&) {
                return true;
            }
            return false;
        };
        wire::Envelope request;
        wire::ShardRequest& r = *request.mutable_shard_request();
        r.set_sha256(std::string(32, 'x'));
        r.set_length(1024);
        r.set_token("t");
        QVERIFY(!refused(request, 0, 0));
        QVERIFY(refused(request, 1, 10)); // a request carries no data
        r.set_length(net::WireLimits::kMaxShardPieceBytes + 1);
        QVERIFY(refused(request, 0, 0));
        r.set_length(1024);
        r.set_sha256("short");
        QVERIFY(refused(request, 0, 0));

        wire::Envelope reply;
        wire::ShardData& d = *reply.mutable_shard_data();
        d.set_sha256(std::string(32, 'x'));
        d.set_offset(100);
        d.set_total(200);
        QVERIFY(!refused(reply, 1, 100));
        QVERIFY(refused(reply, 1, 101)); // ends past the file
        QVERIFY(refused(reply, 0, 0));   // neither bytes nor a refusal
        d.set_refusal("no");
        QVERIFY(refused(reply, 1, 10)); // a refusal with bytes
        QVERIFY(!refused(reply, 0, 0));
        d.set_retry_after_ms(5);
        QVERIFY(refused(reply, 0, 0)); // both a refusal and a retry
    }
};

QTEST_GUILESS_MAIN(TestDataMirror)
#include "tst_data_mirror.moc"
