// What admission costs a peer's CPU per round, measured here, against the time the round's bytes take on the
// wire (the physical bound for the same group at the given bandwidth, computed):
//  - a DHT record read in an admitted run: envelope signature + the owner's token (RecordReader::read; a
//    token seen before is not verified again), the reference being the same read in an open run (envelope
//    signature only), and the first read of a token;
//  - a member's token checked on GroupBegin or a join request (MemberCredentials::curveKeyOf);
//  - per round: every member's token once, and every progress and peer record read during the epoch
//    (--records-per-round, default G × 30: a refresh each ~3 s during a ~90 s epoch).
//  - sealed averages (docs/protocol.md): per round a member hashes the whole vector it received, checks
//    every aggregator's seal and (an aggregator) signs its own, then checks the seals each member passes on.
//  - audited averages (docs/protocol.md): a member signs every part it sends, an aggregator checks the
//    signature of every part it receives, and each member audits two other spans: it checks one part's
//    inputs' signatures (one per member) and recomputes that part's mean.
// CURVE's cost on the bytes themselves is measured by sahaj-bench-allreduce (--curve yes).
#include "core/collab/MemberCredentials.h"
#include "core/collab/PartHeader.h"
#include "core/collab/PartSignatures.h"
#include "core/collab/PartitionPlan.h"
#include "core/collab/SealLedger.h"
#include "core/collab/SpanReducer.h"
#include "core/collab/SpanSeals.h"
#include "core/collab/TensorEncoding.h"
#include "core/dht/RecordEnvelope.h"
#include "core/dht/RecordReader.h"
#include "core/dht/RecordRules.h"
#include "core/security/AccessToken.h"
#include "core/security/CurveKeyPair.h"
#include "core/security/PeerIdentity.h"
#include "core/security/Sha256.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QTextStream>

#include <chrono>
#include <functional>

using namespace sahaj;

namespace {

// Best of five runs of `iterations` calls, in microseconds per call.
double microseconds(int iterations, const std::function<void()>& call) {
    double best = 1e30;
    for (int run = 0; run < 5; ++run) {
        const auto start = std::chrono::steady_clock::now();
        for (int i = 0; i < iterations; ++i)
            call();
        best = std::min(
            best,
            std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count() /
                iterations);
    }
    return best;
}

} // namespace

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    const auto value = [&](const QString& name, double fallback) {
        const qsizetype at = args.indexOf(name);
        return at >= 0 && at + 1 < args.size() ? args[at + 1].toDouble() : fallback;
    };
    const int group = static_cast<int>(value("--group", 8));
    const double records = value("--records-per-round", group * 30.0);
    const double values = value("--values", 18'105'474); // sahajBERT's averaged vector
    const double mbps = value("--mbps", 100);

    const security::PeerIdentity organiser = security::PeerIdentity::generate();
    const security::PeerIdentity peer = security::PeerIdentity::generate();
    const qint64 now = QDateTime::currentSecsSinceEpoch();
    const QByteArray token =
        security::AccessToken::issue("bench-run", "volunteer", peer.id(),
                                     security::CurveKeyPair::generate().publicKey(),
                                     security::AccessToken::Role::Node, now, now + 3600, organiser)
            .toBytes();
    const QByteArray keyHash(20, 'k');
    const auto time = dht::RecordEnvelope::Clock::now();
    const QByteArray admitted =
        dht::RecordEnvelope::sign(peer, keyHash, time, time + std::chrono::seconds(60), QByteArray(64, 'p'),
                                  token)
            .encode();
    const QByteArray open =
        dht::RecordEnvelope::sign(peer, keyHash, time, time + std::chrono::seconds(60), QByteArray(64, 'p'))
            .encode();
    const std::uint64_t slot = dht::RecordRules::valueIdFor(peer.id());
    dht::RecordReader admittedReader(dht::RecordAdmission{organiser.id(), "bench-run"});
    dht::RecordReader openReader;
    const dht::RecordAdmission admission{organiser.id(), "bench-run"};
    const std::string peerId = peer.id().bytes().toStdString();
    const std::string tokenBytes = token.toStdString();

    const double readAdmitted =
        microseconds(2000, [&] { (void)admittedReader.read(keyHash, slot, admitted, time); });
    const double readOpen = microseconds(2000, [&] { (void)openReader.read(keyHash, slot, open, time); });
    const double readFirst = microseconds(2000, [&] {
        dht::RecordReader fresh(admission);
        (void)fresh.read(keyHash, slot, admitted, time);
    });
    const double member = microseconds(2000, [&] {
        if (collab::MemberCredentials::curveKeyOf(peerId, wire::ROLE_NODE, tokenBytes, admission, now)
                .empty())
            std::abort();
    });
    // Sealing: the hash of the whole vector (float32 as received), a seal made, and a seal checked.
    std::vector<float> vector(static_cast<std::size_t>(values), 0.25f);
    QByteArray digest;
    const double hashVector = microseconds(1, [&] {
        security::Sha256 hash;
        collab::SpanSeals::addValues(hash, vector.data(), vector.size());
        digest = hash.result();
    });
    collab::GroupSpec spec;
    spec.groupId = std::string(16, 'g');
    spec.members.push_back({peerId, wire::ROLE_NODE, "tcp://a", 1e6, 1});
    wire::SpanSeal seal;
    const double sealMade = microseconds(
        2000, [&] { seal = collab::SpanSeals::make("bench-run", spec, 0, digest, {1.0}, peer); });
    const double sealChecked = microseconds(2000, [&] {
        if (!collab::SpanSeals::problemWith("bench-run", spec, seal).empty())
            std::abort();
    });
    // A member checks G − 1 seals and signs one; as an aggregator it checks the G − 1 seals each other
    // member passes on (G − 1 members).
    const double sealingUs = hashVector + sealMade + (group - 1.0) * (1.0 + (group - 1.0)) * sealChecked;
    // Audits: a part at the default size in fp16, signed and checked; a part's mean of G inputs recomputed.
    const std::int64_t partValues = collab::PartitionPlan::kDefaultPartElements;
    const std::vector<float> partData(static_cast<std::size_t>(partValues), 0.5f);
    const zmq::message_t frame =
        collab::TensorEncoding::encode(partData.data(), partValues, collab::TensorEncoding::fp16());
    wire::TensorPart part;
    collab::fillPartHeader(part, spec, 0, 0, collab::ElementRange{0, partValues});
    part.set_weight(64.0);
    const double partSigned =
        microseconds(200, [&] { collab::PartSignatures::sign("bench-run", peer, part, frame); });
    const double partChecked = microseconds(200, [&] {
        if (!collab::PartSignatures::problemWith("bench-run", peerId, part, frame).empty())
            std::abort();
    });
    const double recomputed = microseconds(20, [&] {
        collab::SpanReducer reducer({partValues}, std::vector<bool>(static_cast<std::size_t>(group), true), 0,
                                    partData, std::nullopt, collab::TensorEncoding::fp16());
        for (int m = 0; m < group; ++m)
            reducer.setWeight(static_cast<std::size_t>(m), 1.0);
        for (int m = 1; m < group; ++m)
            reducer.add(0, static_cast<std::size_t>(m), partData.data());
        if (!reducer.finish(0).finite)
            std::abort();
    });
    constexpr double kAudits = 2.0; // LinkOptions::auditedSpans
    const double partsSent = values * (group - 1.0) / group / static_cast<double>(partValues);
    const double auditingUs =
        partsSent * (partSigned + partChecked) + kAudits * (group * partChecked + recomputed);
    const double perRoundUs = group * member + records * readAdmitted;
    // Each member sends and receives (G − 1)/G of the vector at fp16 through its link.
    const double boundSeconds = 2.0 * values * (group - 1.0) / group * 2.0 / (mbps * 1e6 / 8.0);

    QTextStream out(stdout);
    out << QString("DHT record read, admitted run: %1 us, a token's first read %2 us (open run %3 us, ratios "
                   "%4 and %5)\n")
               .arg(readAdmitted, 0, 'f', 1)
               .arg(readFirst, 0, 'f', 1)
               .arg(readOpen, 0, 'f', 1)
               .arg(readAdmitted / readOpen, 0, 'f', 2)
               .arg(readFirst / readOpen, 0, 'f', 2);
    out << QString("member token check: %1 us\n").arg(member, 0, 'f', 1);
    out << QString("per round (group %1, %2 records read): %3 ms of CPU; the round's bytes take %4 s at %5 "
                   "Mbit/s: ratio %6\n")
               .arg(group)
               .arg(records, 0, 'f', 0)
               .arg(perRoundUs / 1000.0, 0, 'f', 2)
               .arg(boundSeconds, 0, 'f', 2)
               .arg(mbps, 0, 'f', 0)
               .arg(perRoundUs / 1e6 / boundSeconds, 0, 'e', 2);
    out << QString("sealed averages per round: %1 ms of CPU (the vector's SHA-256 %2 ms, a seal made %3 us, "
                   "checked %4 us, %5 checks); the round's bytes take %6 s at %7 Mbit/s: ratio %8\n")
               .arg(sealingUs / 1000.0, 0, 'f', 2)
               .arg(hashVector / 1000.0, 0, 'f', 2)
               .arg(sealMade, 0, 'f', 1)
               .arg(sealChecked, 0, 'f', 1)
               .arg((group - 1.0) * group, 0, 'f', 0)
               .arg(boundSeconds, 0, 'f', 2)
               .arg(mbps, 0, 'f', 0)
               .arg(sealingUs / 1e6 / boundSeconds, 0, 'e', 2);
    out << QString("audited averages per round: %1 ms of CPU (%2 parts of %3 values signed, %4 us each, and "
                   "as many received checked, %5 us each; %6 audits, each %7 checks and a mean recomputed in "
                   "%8 us); the round's bytes take %9 s at %10 Mbit/s: ratio %11\n")
               .arg(auditingUs / 1000.0, 0, 'f', 2)
               .arg(partsSent, 0, 'f', 0)
               .arg(partValues)
               .arg(partSigned, 0, 'f', 1)
               .arg(partChecked, 0, 'f', 1)
               .arg(kAudits, 0, 'f', 0)
               .arg(group)
               .arg(recomputed, 0, 'f', 0)
               .arg(boundSeconds, 0, 'f', 2)
               .arg(mbps, 0, 'f', 0)
               .arg(auditingUs / 1e6 / boundSeconds, 0, 'e', 2);
    return 0;
}
