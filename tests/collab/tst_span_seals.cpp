// Sealed averages: an aggregator's seal verifies only for its own span, group, epoch, run and values, and
// a second seal of a span with other values is named as the proof that its aggregator equivocated.
#include "core/collab/SealLedger.h"
#include "core/collab/SpanSeals.h"
#include "core/security/PeerIdentity.h"
#include "core/security/Sha256.h"

#include <QTest>

#include <stdexcept>
#include <string>
#include <vector>

using namespace sahaj;
using collab::SpanSeals;

namespace {

const std::string kRun = "seal-run";

QByteArray digestOf(const std::vector<float>& values) {
    security::Sha256 hash;
    SpanSeals::addValues(hash, values.data(), values.size());
    return hash.result();
}

// What each member's parts counted for: any weights do for a seal's signature.
std::vector<double> weightsOf(const collab::GroupSpec& spec) {
    return std::vector<double>(spec.members.size(), 3.0);
}

} // namespace

class TestSpanSeals : public QObject {
    Q_OBJECT

    security::PeerIdentity first_ = security::PeerIdentity::generate();
    security::PeerIdentity second_ = security::PeerIdentity::generate();

    // A group of two whose span 0 is first_'s and span 1 second_'s.
    collab::GroupSpec group() const {
        collab::GroupSpec spec;
        spec.groupId = std::string(16, 'g');
        spec.epoch = 7;
        spec.members.push_back({first_.id().bytes().toStdString(), wire::ROLE_NODE, "tcp://a", 1e6, 1});
        spec.members.push_back({second_.id().bytes().toStdString(), wire::ROLE_NODE, "tcp://b", 1e6, 1});
        return spec;
    }

private Q_SLOTS:
    void aSealVerifiesOnlyAsMade() {
        const collab::GroupSpec spec = group();
        const wire::SpanSeal seal =
            SpanSeals::make(kRun, spec, 1, digestOf({1.0f, 2.0f}), weightsOf(spec), second_);
        QCOMPARE(SpanSeals::problemWith(kRun, spec, seal), std::string());

        QVERIFY(SpanSeals::problemWith("another-run", spec, seal).find("signature") != std::string::npos);
        wire::SpanSeal altered = seal;
        altered.set_values_sha256(digestOf({1.0f, 2.5f}).toStdString());
        QVERIFY(SpanSeals::problemWith(kRun, spec, altered).find("signature") != std::string::npos);
        altered = seal;
        altered.set_counted_weights(0, 300.0); // the weights an auditor recomputes with are signed too
        QVERIFY(SpanSeals::problemWith(kRun, spec, altered).find("signature") != std::string::npos);
        altered.add_counted_weights(3.0);
        QVERIFY(SpanSeals::problemWith(kRun, spec, altered).find("one counted weight per member") !=
                std::string::npos);
        altered = seal;
        altered.set_epoch(8);
        QVERIFY(SpanSeals::problemWith(kRun, spec, altered).find("another group or epoch") !=
                std::string::npos);
        altered = seal;
        altered.set_span(0); // the span is first_'s, the seal second_'s
        QVERIFY(SpanSeals::problemWith(kRun, spec, altered).find("another aggregator") != std::string::npos);
        altered.set_span(2);
        QVERIFY(SpanSeals::problemWith(kRun, spec, altered).find("does not have") != std::string::npos);
        // Signed by another key in the span's aggregator's name.
        wire::SpanSeal forged =
            SpanSeals::make(kRun, spec, 1, digestOf({1.0f, 2.0f}), weightsOf(spec), first_);
        forged.set_aggregator(seal.aggregator());
        QVERIFY(SpanSeals::problemWith(kRun, spec, forged).find("signature") != std::string::npos);
    }

    void twoSealsOfOneSpanThatDifferAreTheProof() {
        const collab::GroupSpec spec = group();
        collab::SealLedger ledger(spec.members.size());
        const wire::SpanSeal one = SpanSeals::make(kRun, spec, 1, digestOf({1.0f}), weightsOf(spec), second_);
        const wire::SpanSeal same =
            SpanSeals::make(kRun, spec, 1, digestOf({1.0f}), weightsOf(spec), second_);
        const wire::SpanSeal other =
            SpanSeals::make(kRun, spec, 1, digestOf({2.0f}), weightsOf(spec), second_);
        const wire::SpanSeal firsts =
            SpanSeals::make(kRun, spec, 0, digestOf({2.0f}), weightsOf(spec), first_);
        QCOMPARE(ledger.record(one), std::string());
        QCOMPARE(ledger.record(same), std::string());
        QCOMPARE(ledger.record(firsts), std::string()); // the same values in another span prove nothing
        const std::string proof = ledger.record(other);
        QVERIFY(proof.find(QByteArray::fromStdString(spec.members[1].peerId).toHex().toStdString()) !=
                std::string::npos);
        QVERIFY(proof.find(QByteArray::fromStdString(one.values_sha256()).toHex().toStdString()) !=
                std::string::npos);
        QVERIFY(proof.find(QByteArray::fromStdString(other.values_sha256()).toHex().toStdString()) !=
                std::string::npos);
        QCOMPARE(ledger.all().size(), std::size_t(2));
        QCOMPARE(ledger.all().at(1).values_sha256(), one.values_sha256()); // the first stays
        wire::SpanSeal outside = one;
        outside.set_span(2);
        QVERIFY_THROWS_EXCEPTION(std::out_of_range, ledger.record(outside));
    }
};

QTEST_GUILESS_MAIN(TestSpanSeals)
#include "tst_span_seals.moc"
