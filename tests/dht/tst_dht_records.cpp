// DHT records: the envelope's layout and signature, the acceptance rules, the newest-per-owner set,
// addresses, and DhtNode's checks and round trip between two nodes in this process (loopback).
#include "core/dht/DhtNode.h"
#include "core/dht/HostPort.h"
#include "core/dht/LatestRecords.h"
#include "core/dht/OwnerKeyQuota.h"
#include "core/dht/RecordEnvelope.h"
#include "core/dht/RecordLookup.h"
#include "core/dht/RecordReader.h"
#include "core/dht/RecordRules.h"
#include "core/dht/RecordSubscription.h"
#include "core/security/AccessToken.h"
#include "core/security/PeerIdentity.h"
#include "core/security/RevokedPeers.h"
#include "tests/common/TestFiles.h"

#include <QDateTime>
#include <QDeadlineTimer>
#include <QRandomGenerator>
#include <QStringList>
#include <QTest>

#include <mutex>
#include <optional>
#include <stdexcept>

using namespace sahaj::dht;
using sahaj::security::AccessToken;
using sahaj::security::PeerId;
using sahaj::security::PeerIdentity;
using sahaj::security::RevokedPeers;
using sahaj::test::errorOf;
using namespace std::chrono_literals;
using Time = RecordEnvelope::Clock::time_point;

namespace {

// RFC 8032 test 1 key (see tst_peer_identity): a fixed owner makes the encoded bytes exact.
const QByteArray kOwnerPem = "-----BEGIN PRIVATE KEY-----\n"
                             "MC4CAQAwBQYDK2VwBCIEIJ1hsZ3v/VpguoRK9JLsLMREScVpezJpGXA7rAMcrn9g\n"
                             "-----END PRIVATE KEY-----\n";
const QByteArray kKeyHash = QByteArray::fromHex("00112233445566778899aabbccddeeff00112233"); // InfoHash size
const QByteArray kOtherKeyHash = QByteArray::fromHex("ffeeddccbbaa99887766554433221100ffeeddcc");

Time at(std::int64_t ms) {
    return Time(std::chrono::milliseconds(ms));
}

const PeerIdentity& owner() {
    static const PeerIdentity identity = PeerIdentity::fromPem(kOwnerPem, "test key");
    return identity;
}

RecordEnvelope signedRecord(Time issued, std::chrono::seconds ttl, const QByteArray& payload = "progress") {
    return RecordEnvelope::sign(owner(), kKeyHash, issued, issued + ttl, payload);
}

DhtRecord record(const PeerId& id, std::int64_t issuedMs, std::int64_t expiresMs, const QByteArray& payload) {
    return DhtRecord{id, payload, at(issuedMs), at(expiresMs), std::nullopt};
}

} // namespace

class TestDhtRecords : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // An owner stores under kMaxKeysPerOwner keys with live records; a key it holds is always replaced; a
    // key frees up when its record expires; other owners are not touched.
    void anOwnerStoresUnderABoundedNumberOfKeys() {
        OwnerKeyQuota quota;
        const PeerId owner = PeerIdentity::generate().id();
        const PeerId other = PeerIdentity::generate().id();
        const Time now = RecordEnvelope::Clock::now();
        const auto key = [](std::size_t i) {
            return QByteArray::number(static_cast<qulonglong>(i)).repeated(4);
        };
        for (std::size_t i = 0; i < OwnerKeyQuota::kMaxKeysPerOwner; ++i)
            QVERIFY(quota.admit(owner, key(i), i == 0 ? now + 10s : now + 300s, now));
        QCOMPARE(quota.keysOf(owner, now), OwnerKeyQuota::kMaxKeysPerOwner);
        QVERIFY2(!quota.admit(owner, key(1000), now + 300s, now), "a key past the quota was admitted");
        QVERIFY2(quota.admit(owner, key(5), now + 400s, now), "a newer record under a held key was refused");
        QVERIFY2(quota.admit(other, key(1000), now + 300s, now), "another owner was refused");
        // The first key's record expires: one key is free again.
        QVERIFY(quota.admit(owner, key(1000), now + 300s, now + 11s));
        QVERIFY(!quota.admit(owner, key(1001), now + 300s, now + 11s));
        QCOMPARE(quota.keysOf(owner, now + 11s), OwnerKeyQuota::kMaxKeysPerOwner);
    }

    void envelopeHasTheDocumentedLayout() {
        const RecordEnvelope envelope = signedRecord(at(1'700'000'000'123), 30s);
        const QByteArray bytes = envelope.encode();
        // 54 header bytes + no credential + 8 payload bytes + 64 signature bytes.
        QCOMPARE(bytes.size(), 126);
        QCOMPARE(bytes.left(4), QByteArray("SHR2"));
        QCOMPARE(bytes.mid(4, 32), owner().id().bytes());
        QCOMPARE(bytes.mid(36, 8).toHex(), QByteArray("0000018bcfe5687b")); // 1'700'000'000'123 ms
        QCOMPARE(bytes.mid(44, 8).toHex(), QByteArray("0000018bcfe5ddab")); // 30 s later
        QCOMPARE(bytes.mid(52, 2).toHex(), QByteArray("0000"));             // no credential
        QCOMPARE(bytes.mid(54, 8), QByteArray("progress"));
        QCOMPARE(bytes.right(64), envelope.signature());

        const auto decoded = RecordEnvelope::decode(bytes);
        QVERIFY(decoded.has_value());
        QCOMPARE(decoded->owner(), owner().id());
        QVERIFY(decoded->issuedAt() == at(1'700'000'000'123));
        QVERIFY(decoded->expiresAt() == at(1'700'000'030'123));
        QCOMPARE(decoded->payload(), QByteArray("progress"));
        QCOMPARE(decoded->encode(), bytes);
        QVERIFY(decoded->hasValidSignature(kKeyHash));
    }

    void signatureBindsKeyAndEveryField() {
        const RecordEnvelope envelope = signedRecord(at(1'700'000'000'000), 30s);
        QVERIFY(!envelope.hasValidSignature(kOtherKeyHash)); // no replay under another key

        QByteArray payloadFlipped = envelope.encode();
        payloadFlipped[54] = 'P';
        QVERIFY(!RecordEnvelope::decode(payloadFlipped)->hasValidSignature(kKeyHash));

        const RecordEnvelope extended(envelope.owner(), envelope.issuedAt(), envelope.expiresAt() + 1s,
                                      envelope.payload(), envelope.signature());
        QVERIFY(!extended.hasValidSignature(kKeyHash));
        const RecordEnvelope stolen(PeerIdentity::generate().id(), envelope.issuedAt(), envelope.expiresAt(),
                                    envelope.payload(), envelope.signature());
        QVERIFY(!stolen.hasValidSignature(kKeyHash));
    }

    void decodeRefusesWhatIsNotAnEnvelope() {
        const QByteArray good = signedRecord(at(1'700'000'000'000), 30s, QByteArray()).encode();
        QCOMPARE(good.size(), 118); // the smallest envelope: no credential, empty payload
        QVERIFY(RecordEnvelope::decode(good).has_value());
        QVERIFY(!RecordEnvelope::decode(good.chopped(1)).has_value());
        QVERIFY(!RecordEnvelope::decode(QByteArray()).has_value());
        QByteArray wrongMagic = good;
        wrongMagic[3] = '1';
        QVERIFY(!RecordEnvelope::decode(wrongMagic).has_value());
        QByteArray negativeTime = good;
        negativeTime[36] = '\x80';
        QVERIFY(!RecordEnvelope::decode(negativeTime).has_value());
        QByteArray farFuture = good;
        farFuture[44] = '\x7f'; // ~year 292 million: beyond what system_clock holds
        QVERIFY(!RecordEnvelope::decode(farFuture).has_value());

        const QByteArray largest =
            RecordEnvelope::sign(owner(), kKeyHash, at(1'700'000'000'000), at(1'700'000'030'000),
                                 QByteArray(16 * 1024, 'x'), QByteArray(1024, 'c'))
                .encode();
        QCOMPARE(largest.size(), RecordEnvelope::kMaxEncodedSize);
        QVERIFY(RecordEnvelope::decode(largest).has_value());
        QVERIFY(!RecordEnvelope::decode(largest + 'x').has_value());
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 signedRecord(at(1'700'000'000'000), 30s, QByteArray(16 * 1024 + 1, 'x')));
    }

    void randomBytesAreCountedNeverTrusted() {
        // Untrusted input of every size, half of it with the right magic: nothing crashes, nothing passes.
        RecordReader reader;
        QRandomGenerator random(2024);
        const int rounds = 2000;
        for (int i = 0; i < rounds; ++i) {
            QByteArray bytes(random.bounded(0, 400), Qt::Uninitialized);
            for (char& byte : bytes)
                byte = static_cast<char>(random.bounded(256));
            if (i % 2 == 0 && bytes.size() >= 4)
                bytes.replace(0, 4, "SHR2");
            QVERIFY(!reader.read(kKeyHash, 1, bytes, at(1'700'000'000'000)).has_value());
        }
        QCOMPARE(reader.rejected(), std::uint64_t(rounds));
    }

    void rulesJudgeTimeSlotAndSignature() {
        const Time now = at(1'700'000'000'000);
        const std::uint64_t slot = RecordRules::valueIdFor(owner().id());
        const auto judge = [&](const RecordEnvelope& envelope, std::uint64_t valueId = 0) {
            return RecordRules::judge(envelope, valueId ? valueId : slot, kKeyHash, now);
        };
        QCOMPARE(judge(signedRecord(now - 5s, 30s)), RecordVerdict::Live);
        QCOMPARE(judge(signedRecord(now - 30s, 30s)), RecordVerdict::Expired); // expiresAt == now
        QCOMPARE(judge(signedRecord(now + 59s, 30s)), RecordVerdict::Live);    // within the allowed skew
        QCOMPARE(judge(signedRecord(now + 61s, 30s)), RecordVerdict::Invalid); // from the future
        QCOMPARE(judge(signedRecord(now, 600s)), RecordVerdict::Live);
        QCOMPARE(judge(signedRecord(now, 601s)), RecordVerdict::Invalid); // longer than kMaxTtl
        QCOMPARE(judge(signedRecord(now, 0s)), RecordVerdict::Invalid);
        QCOMPARE(judge(signedRecord(now, 30s), slot + 1), RecordVerdict::Invalid); // not the owner's slot

        const RecordEnvelope good = signedRecord(now, 30s);
        QByteArray badSignature = good.signature();
        badSignature[0] = static_cast<char>(badSignature[0] ^ 0x40);
        QCOMPARE(judge(RecordEnvelope(good.owner(), good.issuedAt(), good.expiresAt(), good.payload(),
                                      badSignature)),
                 RecordVerdict::Invalid);
    }

    void readerReturnsLiveRecordsAndCountsOnlyInvalidOnes() {
        const Time now = at(1'700'000'000'000);
        const std::uint64_t slot = RecordRules::valueIdFor(owner().id());
        RecordReader reader;
        const auto live = reader.read(kKeyHash, slot, signedRecord(now, 30s, "live").encode(), now);
        QVERIFY(live.has_value());
        QCOMPARE(live->owner, owner().id());
        QCOMPARE(live->payload, QByteArray("live"));
        QVERIFY(live->expiresAt == now + 30s);
        // Expired records are returned (they still hide older ones) and are no offence.
        const auto expired = reader.read(kKeyHash, slot, signedRecord(now - 60s, 30s).encode(), now);
        QVERIFY(expired.has_value() && expired->expiresAt == now - 30s);
        QCOMPARE(reader.rejected(), std::uint64_t(0));
        QVERIFY(!reader.read(kOtherKeyHash, slot, signedRecord(now, 30s).encode(), now).has_value());
        QVERIFY(!reader.read(kKeyHash, slot, "SHR2", now).has_value());
        QCOMPARE(reader.rejected(), std::uint64_t(2));
    }

    // What tells a peer its clock is off (ClockEvidence): each owner's newest signed record's issue time
    // against this clock, those dated past the allowed skew into its future included (refused all the
    // same); a record whose signature fails is no evidence of anything.
    void readerNotesTheTimesOfSignedRecordsEvenFromTheFuture() {
        const Time now = at(1'700'000'000'000);
        const std::uint64_t slot = RecordRules::valueIdFor(owner().id());
        RecordReader reader(std::nullopt, true);
        QVERIFY(reader.freshestOffsetsMs().empty());
        QVERIFY(reader.read(kKeyHash, slot, signedRecord(now - 20s, 60s).encode(), now).has_value());
        QCOMPARE(reader.freshestOffsetsMs(), std::vector<std::int64_t>{-20000});
        QVERIFY(!reader.read(kKeyHash, slot, signedRecord(now + 300s, 60s).encode(), now).has_value());
        QCOMPARE(reader.rejected(), std::uint64_t(1));
        QCOMPARE(reader.freshestOffsetsMs(), std::vector<std::int64_t>{300000}); // the owner's newest
        RecordReader other(std::nullopt, true);
        QByteArray forged = signedRecord(now + 300s, 60s).encode();
        forged[forged.size() - 1] = static_cast<char>(forged[forged.size() - 1] ^ 1);
        QVERIFY(!other.read(kKeyHash, slot, forged, now).has_value());
        QVERIFY(other.freshestOffsetsMs().empty());
        RecordReader blind; // a reader that does not watch the clock keeps nothing
        QVERIFY(!blind.read(kKeyHash, slot, signedRecord(now + 300s, 60s).encode(), now).has_value());
        QVERIFY(blind.read(kKeyHash, slot, signedRecord(now, 60s).encode(), now).has_value());
        QVERIFY(blind.freshestOffsetsMs().empty());
    }

    void readerAdmitsOnlyOwnersWithAValidToken() {
        const Time now = at(1'700'000'000'000);
        const qint64 nowS = 1'700'000'000;
        const std::uint64_t slot = RecordRules::valueIdFor(owner().id());
        const PeerIdentity organiser = PeerIdentity::generate();
        const QByteArray curveKey(32, '\x07');
        const auto token = [&](const QString& run, const PeerId& peer, qint64 issued, qint64 expires,
                               const PeerIdentity& signer) {
            return AccessToken::issue(run, "alice", peer, curveKey, AccessToken::Role::Node, issued, expires,
                                      signer)
                .toBytes();
        };
        const QByteArray valid = token("run-a", owner().id(), nowS - 10, nowS + 3600, organiser);
        const auto withCredential = [&](const QByteArray& credential) {
            return RecordEnvelope::sign(owner(), kKeyHash, now, now + 30s, "progress", credential).encode();
        };

        RecordReader reader(RecordAdmission{organiser.id(), "run-a"});
        const auto admitted = reader.read(kKeyHash, slot, withCredential(valid), now);
        QVERIFY(admitted.has_value());
        QVERIFY(admitted->token.has_value());
        QCOMPARE(admitted->token->curvePublicKey(), curveKey);
        QCOMPARE(admitted->token->peer(), owner().id());
        QCOMPARE(reader.rejected(), std::uint64_t(0));

        // Nor is a revoked peer's, from the moment the reader knows of the revocation.
        auto revoked = std::make_shared<RevokedPeers>();
        RecordReader revoking(RecordAdmission{organiser.id(), "run-a", revoked});
        QVERIFY(revoking.read(kKeyHash, slot, withCredential(valid), now).has_value());
        revoked->add({owner().id()});
        QVERIFY(!revoking.read(kKeyHash, slot, withCredential(valid), now).has_value());

        const PeerIdentity stranger = PeerIdentity::generate();
        QByteArray tampered = withCredential(valid);
        tampered[60] =
            static_cast<char>(tampered[60] ^ 1); // inside the credential: the record's signature breaks
        const QList<QByteArray> refused{
            withCredential({}),                                                                // no token
            withCredential(token("run-a", owner().id(), nowS - 7200, nowS - 3600, organiser)), // expired
            withCredential(token("run-b", owner().id(), nowS - 10, nowS + 3600, organiser)),   // another run
            withCredential(
                token("run-a", stranger.id(), nowS - 10, nowS + 3600, organiser)), // another peer's
            withCredential(
                token("run-a", owner().id(), nowS - 10, nowS + 3600, stranger)), // not the organiser
            withCredential("not a token at all"),
            tampered,
        };
        for (const QByteArray& bytes : refused)
            QVERIFY(!reader.read(kKeyHash, slot, bytes, now).has_value());
        QCOMPARE(reader.rejected(), std::uint64_t(refused.size()));

        // A token verified once is not taken on trust for anything else: copied into another owner's record,
        // or read again after it expired.
        const std::uint64_t before = reader.rejected();
        const PeerIdentity thief = PeerIdentity::generate();
        const QByteArray copied =
            RecordEnvelope::sign(thief, kKeyHash, now, now + 30s, "progress", valid).encode();
        QVERIFY(!reader.read(kKeyHash, RecordRules::valueIdFor(thief.id()), copied, now).has_value());
        QVERIFY(!reader.read(kKeyHash, slot, withCredential(valid), now + 3700s).has_value());
        QCOMPARE(reader.rejected(), before + 2);

        // A network that admits anyone reads the record and ignores what it carries.
        RecordReader open;
        const auto read = open.read(kKeyHash, slot, withCredential("not a token at all"), now);
        QVERIFY(read.has_value() && !read->token.has_value());
        QVERIFY(
            errorOf([&] { withCredential(QByteArray(1025, 't')); }).contains("credential is at most 1024"));
    }

    void valueIdIsTheOwnersKeyPrefix() {
        // d75a980182b10ab7... is the RFC 8032 test public key.
        QCOMPARE(RecordRules::valueIdFor(owner().id()), std::uint64_t(0xd75a980182b10ab7));
        QCOMPARE(RecordRules::valueIdFor(PeerId()), std::uint64_t(1)); // 0 means "no id" to OpenDHT
    }

    void latestRecordsKeepEachOwnersNewest() {
        const PeerId a = PeerIdentity::generate().id();
        const PeerId b = PeerIdentity::generate().id();
        LatestRecords latest;
        latest.offer(record(a, 1000, 60'000, "a1"));
        latest.offer(record(b, 1000, 60'000, "b1"));
        latest.offer(record(a, 2000, 60'000, "a2"));
        latest.offer(record(a, 500, 60'000, "a0")); // an old copy from a node that missed the update
        std::vector<DhtRecord> live = latest.live(at(3000));
        QCOMPARE(live.size(), 2u);
        const auto payloadOf = [&](const PeerId& id) {
            for (const DhtRecord& r : live)
                if (r.owner == id)
                    return r.payload;
            return QByteArray("(none)");
        };
        QCOMPARE(payloadOf(a), QByteArray("a2"));
        QCOMPARE(payloadOf(b), QByteArray("b1"));
        QVERIFY(live[0].owner < live[1].owner);

        // The newest word counts even when it is a shorter life: the older, longer record stays hidden.
        latest.offer(record(a, 4000, 5000, "a-short"));
        live = latest.live(at(6000));
        QCOMPARE(live.size(), 1u);
        QCOMPARE(live[0].owner, b);
    }

    void subscriptionDeliversOnlyNewOrNewerRecords() {
        const PeerId a = PeerIdentity::generate().id();
        const PeerId b = PeerIdentity::generate().id();
        QStringList delivered;
        RecordSubscription subscription(
            "k", [&](const DhtRecord& r) { delivered << QString::fromUtf8(r.payload); });
        QVERIFY(subscription.beginRound());
        QVERIFY(!subscription.beginRound()); // one round at a time
        subscription.deliver({record(a, 1000, 60'000, "a1"), record(b, 1000, 60'000, "b1")}, at(2000));
        QVERIFY(subscription.beginRound());
        subscription.deliver({record(a, 1000, 60'000, "a1"), record(b, 3000, 60'000, "b2")}, at(4000));
        QVERIFY(subscription.beginRound());
        subscription.deliver({record(a, 900, 60'000, "a0")}, at(5000)); // older than a1: stale copy
        QCOMPARE(delivered, QStringList({"a1", "b1", "b2"}));

        subscription.cancel();
        QVERIFY(!subscription.beginRound());
        subscription.deliver({record(a, 9000, 60'000, "a9")}, at(9500)); // a round that was in flight
        QCOMPARE(delivered.size(), 3);
    }

    void hostPortParsesAndExplainsMistakes() {
        const HostPort v4 = HostPort::parse("127.0.0.1:4222");
        QCOMPARE(v4.host, QString("127.0.0.1"));
        QCOMPARE(v4.port, std::uint16_t(4222));
        QCOMPARE(HostPort::parse("[::1]:65535").host, QString("::1"));
        QCOMPARE(HostPort::parse("coordinator.example.org:1").port, std::uint16_t(1));
        for (const QString bad :
             {"", "nohost", ":80", "host:", "host:0", "host:65536", "host:8x", "::1:80", "[]:80"}) {
            const QString message = errorOf([&] { HostPort::parse(bad); });
            QVERIFY2(message.contains("'" + bad + "' is not a host:port address"),
                     qPrintable(bad + ": " + message));
        }
    }

    void nodeRefusesBadArgumentsClearly() {
        DhtNodeOptions options;
        options.bootstrap = {"127.0.0.1"};
        QVERIFY(errorOf([&] { DhtNode node(options); }).contains("'127.0.0.1' is not a host:port address"));
        options.bootstrap.clear();
        options.bindAddress = "localhost";
        QVERIFY(errorOf([&] {
                    DhtNode node(options);
                }).contains("'localhost' is not a numeric IPv4 or IPv6 address"));
        options.bindAddress = "192.0.2.1"; // TEST-NET-1: not an address of this machine
        QVERIFY(errorOf([&] {
                    DhtNode node(options);
                }).contains("cannot bind the DHT node to UDP 192.0.2.1 port 0"));

        DhtNode reader(DhtNodeOptions{});
        QVERIFY(reader.port() != 0);
        QVERIFY(errorOf([&] { reader.put("k", "x", 10s); }).contains("no identity"));

        options = DhtNodeOptions{};
        options.identity = std::make_shared<const PeerIdentity>(PeerIdentity::generate());
        DhtNode writer(options);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, writer.put("k", QByteArray(16 * 1024 + 1, 'x'), 10s));
        QVERIFY(errorOf([&] { writer.put("k", "x", 0s); }).contains("ttl is 1 to 600 seconds, got 0"));
        QVERIFY(errorOf([&] { writer.put("k", "x", 601s); }).contains("ttl is 1 to 600 seconds, got 601"));
        QVERIFY(errorOf([&] { writer.put("", "x", 10s); }).contains("key is empty"));
    }

    void nodesOfARunStoreAndReadOnlyAdmittedRecords() {
        // Three nodes of one run: the bootstrap node stores, an admitted peer publishes, a peer without a
        // token tries to. Neither the storing node nor a reader keeps the intruder's records.
        const PeerIdentity organiser = PeerIdentity::generate();
        const RecordAdmission admission{organiser.id(), "run-a"};
        const qint64 nowS = QDateTime::currentSecsSinceEpoch();
        DhtNodeOptions bootstrapOptions;
        bootstrapOptions.admission = admission;
        DhtNode bootstrap(bootstrapOptions);

        DhtNodeOptions admittedOptions;
        admittedOptions.bootstrap = {QStringLiteral("127.0.0.1:%1").arg(bootstrap.port())};
        admittedOptions.identity = std::make_shared<const PeerIdentity>(PeerIdentity::generate());
        admittedOptions.admission = admission;
        admittedOptions.credential =
            AccessToken::issue("run-a", "alice", admittedOptions.identity->id(), QByteArray(32, 'k'),
                               AccessToken::Role::Node, nowS - 5, nowS + 3600, organiser)
                .toBytes();
        DhtNode admitted(admittedOptions);

        DhtNodeOptions intruderOptions = admittedOptions;
        intruderOptions.identity = std::make_shared<const PeerIdentity>(PeerIdentity::generate());
        intruderOptions.admission.reset(); // so that its own put() does not refuse to send without a token
        intruderOptions.credential = admittedOptions.credential; // someone else's token
        DhtNode intruder(intruderOptions);
        QTRY_VERIFY_WITH_TIMEOUT(admitted.connectedNodeCount() > 0 && intruder.connectedNodeCount() > 0,
                                 60000);

        DhtNodeOptions noToken = admittedOptions;
        noToken.credential.clear();
        DhtNode unadmitted(noToken);
        QVERIFY(errorOf([&] { unadmitted.put("k", "x", 10s); }).contains("has none to publish with"));

        intruder.put("sahaj/run-a/peers", "intruder", 120s);
        admitted.put("sahaj/run-a/peers", "admitted", 120s);
        const auto payloads = [&] {
            QStringList seen;
            for (const DhtRecord& record : bootstrap.get("sahaj/run-a/peers", 3s))
                seen << QString::fromUtf8(record.payload);
            return seen;
        };
        QTRY_COMPARE_WITH_TIMEOUT(payloads(), QStringList({"admitted"}), 60000);
        // The intruder's node reads its own record back only from its own storage; the admitted one
        // never sees it, and the refusals are counted.
        QTRY_VERIFY_WITH_TIMEOUT(bootstrap.rejectedRecords() > 0, 60000);
        for (const DhtRecord& record : admitted.get("sahaj/run-a/peers", 3s))
            QCOMPARE(record.payload, QByteArray("admitted"));
    }

    // A lookup that does not block its caller (RecordLookup, what the collaboration thread's boards use):
    // started again and again while the record is not there yet, it hands the record over once it has it,
    // and once only.
    void aLookupHandsOverWhatItFoundOnce() {
        DhtNode first(DhtNodeOptions{});
        DhtNodeOptions options;
        options.bootstrap = {QStringLiteral("127.0.0.1:%1").arg(first.port())};
        options.identity = std::make_shared<const PeerIdentity>(PeerIdentity::generate());
        DhtNode second(options);
        QTRY_VERIFY_WITH_TIMEOUT(second.connectedNodeCount() > 0 && first.connectedNodeCount() > 0, 60000);
        second.put("sahaj/test/looked-up", "found", 120s);

        RecordLookup lookup(first, QStringLiteral("sahaj/test/looked-up"), 10s);
        QVERIFY(!lookup.take()); // nothing started, nothing to hand over
        std::optional<std::vector<DhtRecord>> found;
        const QDeadlineTimer patience(60000);
        while (!found && !patience.hasExpired()) {
            lookup.start(); // a no-op while one is under way
            if (std::optional<std::vector<DhtRecord>> records = lookup.take(); records && !records->empty())
                found = std::move(records);
            else
                QTest::qWait(50);
        }
        QVERIFY(found);
        QCOMPARE(found->size(), std::size_t(1));
        QCOMPARE(found->front().payload, QByteArray("found"));
        QCOMPARE(found->front().owner, options.identity->id());
        QVERIFY(!lookup.underWay());
        QVERIFY(!lookup.take()); // handed over already
    }

    void twoNodesExchangeRecords() {
        DhtNode first(DhtNodeOptions{}); // no identity: a bootstrap node only stores and relays
        DhtNodeOptions options;
        options.bootstrap = {QStringLiteral("127.0.0.1:%1").arg(first.port())};
        options.identity = std::make_shared<const PeerIdentity>(PeerIdentity::generate());
        DhtNode second(options);
        QTRY_VERIFY_WITH_TIMEOUT(second.connectedNodeCount() > 0 && first.connectedNodeCount() > 0, 60000);

        // The largest payload allowed crosses UDP (OpenDHT splits large values into parts).
        const QByteArray large(16 * 1024, 'L');
        second.put("sahaj/test/large", large, 120s);
        second.put("sahaj/test/small", "hello", 120s);
        const auto payloadAt = [&](const QString& key) {
            const std::vector<DhtRecord> records = first.get(key, 5s);
            return records.size() == 1 && records[0].owner == options.identity->id() ? records[0].payload
                                                                                     : QByteArray();
        };
        QTRY_COMPARE_WITH_TIMEOUT(payloadAt("sahaj/test/small"), QByteArray("hello"), 60000);
        QTRY_COMPARE_WITH_TIMEOUT(payloadAt("sahaj/test/large"), large, 60000);
        QVERIFY(first.get("sahaj/test/nothing-here", 5s).empty());

        // Listeners see the record there, then its replacements; a cancelled one sees nothing more.
        std::mutex mutex;
        QStringList heardByKept, heardByCancelled;
        const auto collect = [&](QStringList& into) {
            return [&mutex, &into](const DhtRecord& r) {
                std::lock_guard lock(mutex);
                into << QString::fromUtf8(r.payload);
            };
        };
        const auto heard = [&](const QStringList& list) {
            std::lock_guard lock(mutex);
            return list;
        };
        first.listen("sahaj/test/small", collect(heardByKept));
        const DhtNode::ListenToken cancelled = first.listen("sahaj/test/small", collect(heardByCancelled));
        QTRY_COMPARE_WITH_TIMEOUT(heard(heardByCancelled), QStringList({"hello"}), 60000);
        second.put("sahaj/test/small", "hello again", 120s);
        QTRY_COMPARE_WITH_TIMEOUT(heard(heardByCancelled), QStringList({"hello", "hello again"}), 60000);
        first.cancelListen(cancelled);
        first.cancelListen(cancelled); // unknown by now: ignored
        second.put("sahaj/test/small", "third", 120s);
        QTRY_COMPARE_WITH_TIMEOUT(heard(heardByKept), QStringList({"hello", "hello again", "third"}), 60000);
        QCOMPARE(heard(heardByCancelled), QStringList({"hello", "hello again"}));
        QCOMPARE(first.rejectedRecords(), std::uint64_t(0));
    }
};

QTEST_GUILESS_MAIN(TestDhtRecords)
#include "tst_dht_records.moc"
