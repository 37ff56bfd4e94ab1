// Audited averages (docs/protocol.md): a part's signature verifies only as its sender made it, and an
// auditor recomputing a part's mean from the inputs its aggregator shows finds an honest aggregator's mean
// (in any order of arrival, under the mean or CenteredClip, with a weight cap common to all) and proves a
// wrong one, forged or foreign inputs, and weights no cap gives; withheld inputs prove nothing.
#include "core/collab/AuditChoice.h"
#include "core/collab/PartAudit.h"
#include "core/collab/PartHeader.h"
#include "core/collab/PartSignatures.h"
#include "core/collab/SpanReducer.h"
#include "core/collab/TensorEncoding.h"
#include "core/security/PeerIdentity.h"

#include <QTest>

#include <zmq.hpp>

#include <random>
#include <set>
#include <string>
#include <vector>

using namespace sahaj;
using collab::PartAudit;
using Kind = collab::PartAudit::Verdict::Kind;

namespace {

const std::string kRun = "audit-run";
constexpr std::size_t kMembers = 4;
constexpr std::size_t kAggregator = 1;
constexpr std::int64_t kPart = 2;
const collab::ElementRange kRange{1000, 500};

struct Shown {
    wire::AuditedPart part;
    zmq::message_t data;
};

} // namespace

class TestPartAudit : public QObject {
    Q_OBJECT

    std::vector<security::PeerIdentity> identities_;
    std::vector<std::vector<float>> inputs_; // per member, its values of the audited part
    std::vector<double> sent_;               // per member, the weight it signed

    collab::GroupSpec group(wire::Encoding encoding) const {
        collab::GroupSpec spec;
        spec.groupId = std::string(16, 'g');
        spec.epoch = 9;
        spec.encoding = encoding;
        for (const security::PeerIdentity& identity : identities_)
            spec.members.push_back({identity.id().bytes().toStdString(), wire::ROLE_NODE, "tcp://x", 1e6, 1});
        return spec;
    }

    // Member m's input as the aggregator shows it: signed by m, its values as they came (the aggregator's
    // own in float32).
    Shown shown(const collab::GroupSpec& spec, std::size_t m, std::uint32_t inputs) const {
        Shown out;
        out.part.set_sender(spec.members[m].peerId);
        out.part.set_inputs(inputs);
        wire::TensorPart* part = out.part.mutable_part();
        collab::fillPartHeader(*part, spec, kAggregator, kPart, kRange);
        const wire::Encoding encoding = m == kAggregator ? collab::TensorEncoding::fp32() : spec.encoding;
        *part->mutable_encoding() = encoding;
        part->set_weight(sent_[m]);
        out.data = collab::TensorEncoding::encode(inputs_[m].data(), kRange.size, encoding);
        collab::PartSignatures::sign(kRun, identities_[m], *part, out.data);
        return out;
    }

    // What an honest aggregator sends as the part's mean: its own values first, the others' as they came,
    // in the order given, each counted for min(sent, cap).
    std::vector<float> honestMean(const collab::GroupSpec& spec, const std::vector<std::size_t>& order,
                                  std::optional<collab::CenteredClipOptions> clip, double cap) const {
        collab::SpanReducer reducer({kRange.size}, std::vector<bool>(kMembers, true), kAggregator,
                                    inputs_[kAggregator], clip, spec.encoding);
        for (std::size_t m = 0; m < kMembers; ++m)
            reducer.setWeight(m, std::min(sent_[m], cap));
        for (const std::size_t m : order) {
            std::vector<float> values(static_cast<std::size_t>(kRange.size));
            const zmq::message_t data =
                collab::TensorEncoding::encode(inputs_[m].data(), kRange.size, spec.encoding);
            collab::TensorEncoding::decode(data, kRange.size, spec.encoding, values.data());
            reducer.add(0, m, values.data());
        }
        const collab::SpanReducer::Mean mean = reducer.finish(0);
        return std::vector<float>(mean.values.begin(), mean.values.end());
    }

    std::vector<double> counted(double cap) const {
        std::vector<double> weights;
        for (const double sent : sent_)
            weights.push_back(std::min(sent, cap));
        return weights;
    }

    PartAudit auditOf(const collab::GroupSpec& spec, const std::vector<double>& weights,
                      std::optional<collab::CenteredClipOptions> clip = std::nullopt) const {
        return PartAudit(kRun, spec, kAggregator, kPart, kRange, weights, clip);
    }

    // Shows every input in member order; empty when none proves a lie.
    std::string showAll(PartAudit& audit, const collab::GroupSpec& spec) const {
        for (std::size_t m = 0; m < kMembers; ++m) {
            const Shown input = shown(spec, m, kMembers);
            if (std::string lie = audit.add(input.part, input.data); !lie.empty())
                return lie;
        }
        return {};
    }

private Q_SLOTS:
    void initTestCase() {
        std::mt19937 random(7);
        std::normal_distribution<float> normal(0.0f, 1.0f);
        for (std::size_t m = 0; m < kMembers; ++m) {
            identities_.push_back(security::PeerIdentity::generate());
            std::vector<float> values(static_cast<std::size_t>(kRange.size));
            for (float& value : values)
                value = normal(random) + static_cast<float>(m);
            inputs_.push_back(std::move(values));
            sent_.push_back(10.0 * static_cast<double>(m + 1));
        }
    }

    void aPartSignatureVerifiesOnlyAsMade() {
        const collab::GroupSpec spec = group(collab::TensorEncoding::fp16());
        Shown input = shown(spec, 2, kMembers);
        const std::string sender = spec.members[2].peerId;
        QCOMPARE(collab::PartSignatures::problemWith(kRun, sender, input.part.part(), input.data),
                 std::string());
        QVERIFY(collab::PartSignatures::problemWith("another-run", sender, input.part.part(), input.data)
                    .find("signature") != std::string::npos);
        QVERIFY(
            collab::PartSignatures::problemWith(kRun, spec.members[3].peerId, input.part.part(), input.data)
                .find("signature") != std::string::npos);
        wire::TensorPart heavier = input.part.part();
        heavier.set_weight(1e12);
        QVERIFY(collab::PartSignatures::problemWith(kRun, sender, heavier, input.data).find("signature") !=
                std::string::npos);
        static_cast<char*>(input.data.data())[0] ^= 1;
        QVERIFY(collab::PartSignatures::problemWith(kRun, sender, input.part.part(), input.data)
                    .find("signature") != std::string::npos);
        wire::TensorPart unsigned_ = input.part.part();
        unsigned_.clear_signature();
        QVERIFY(collab::PartSignatures::problemWith(kRun, sender, unsigned_, input.data).find("not signed") !=
                std::string::npos);
    }

    void anHonestMeanFits_data() {
        QTest::addColumn<bool>("fp16");
        QTest::addColumn<bool>("clip");
        QTest::addColumn<double>("cap");
        QTest::newRow("fp32 mean") << false << false << 1e300;
        QTest::newRow("fp16 mean") << true << false << 1e300;
        QTest::newRow("fp16 mean, weights capped") << true << false << 25.0;
        QTest::newRow("fp16 CenteredClip") << true << true << 1e300;
    }
    void anHonestMeanFits() {
        QFETCH(bool, fp16);
        QFETCH(bool, clip);
        QFETCH(double, cap);
        const collab::GroupSpec spec =
            group(fp16 ? collab::TensorEncoding::fp16() : collab::TensorEncoding::fp32());
        const std::optional<collab::CenteredClipOptions> rule =
            clip ? std::optional<collab::CenteredClipOptions>(collab::CenteredClipOptions{}) : std::nullopt;
        // The aggregator added the inputs as they came, last member first; the audit adds them in order.
        const std::vector<float> received = honestMean(spec, {3, 2, 0}, rule, cap);
        PartAudit audit = auditOf(spec, counted(cap), rule);
        QCOMPARE(showAll(audit, spec), std::string());
        QVERIFY(audit.complete());
        const PartAudit::Verdict verdict = audit.judge(received);
        QVERIFY2(verdict.kind == Kind::Fits, verdict.why.c_str());
    }

    void aWrongMeanIsALie() {
        const collab::GroupSpec spec = group(collab::TensorEncoding::fp16());
        std::vector<float> received = honestMean(spec, {0, 2, 3}, std::nullopt, 1e300);
        for (std::size_t i = 0; i < received.size(); i += 10)
            received[i] += 5.0f; // the same lie every member was sent: its seal holds
        PartAudit audit = auditOf(spec, counted(1e300));
        QCOMPARE(showAll(audit, spec), std::string());
        const PartAudit::Verdict verdict = audit.judge(received);
        QVERIFY(verdict.kind == Kind::Lie);
        QVERIFY2(verdict.why.find("inputs do not give") != std::string::npos, verdict.why.c_str());
    }

    void weightsNoCommonCapGivesAreALie() {
        const collab::GroupSpec spec = group(collab::TensorEncoding::fp16());
        // Member 2 counted for less than it sent while member 3, heavier, counted in full: no cap does that.
        std::vector<double> weights = counted(1e300);
        weights[2] = 1.0;
        PartAudit audit = auditOf(spec, weights);
        QCOMPARE(showAll(audit, spec), std::string());
        PartAudit::Verdict verdict = audit.judge(honestMean(spec, {0, 2, 3}, std::nullopt, 1e300));
        QVERIFY(verdict.kind == Kind::Lie);
        QVERIFY2(verdict.why.find("capped weights") != std::string::npos, verdict.why.c_str());
        // Two caps, or a weight above what the sender signed.
        weights = counted(25.0);
        weights[3] = 24.0;
        PartAudit twoCaps = auditOf(spec, weights);
        QCOMPARE(showAll(twoCaps, spec), std::string());
        verdict = twoCaps.judge(honestMean(spec, {0, 2, 3}, std::nullopt, 25.0));
        QVERIFY2(verdict.kind == Kind::Lie && verdict.why.find("two different") != std::string::npos,
                 verdict.why.c_str());
        weights = counted(1e300);
        weights[kAggregator] = 1e6;
        PartAudit heavy = auditOf(spec, weights);
        QCOMPARE(showAll(heavy, spec), std::string());
        verdict = heavy.judge(honestMean(spec, {0, 2, 3}, std::nullopt, 1e300));
        QVERIFY2(verdict.kind == Kind::Lie && verdict.why.find("its parts carry") != std::string::npos,
                 verdict.why.c_str());
    }

    void forgedOrForeignInputsAreALie() {
        const collab::GroupSpec spec = group(collab::TensorEncoding::fp16());
        {
            PartAudit audit = auditOf(spec, counted(1e300));
            Shown input = shown(spec, 3, kMembers);
            static_cast<char*>(input.data.data())[1] ^= 1; // values the sender never sent
            QVERIFY(audit.add(input.part, input.data).find("signature") != std::string::npos);
        }
        {
            PartAudit audit = auditOf(spec, counted(1e300));
            Shown input = shown(spec, 3, kMembers);
            input.part.set_sender(spec.members[0].peerId); // someone else's input in member 0's name
            QVERIFY(audit.add(input.part, input.data).find("signature") != std::string::npos);
        }
        {
            PartAudit audit = auditOf(spec, counted(1e300));
            Shown input = shown(spec, 3, kMembers);
            input.part.mutable_part()->set_part(kPart + 1);
            QVERIFY(audit.add(input.part, input.data).find("another group, epoch, span or part") !=
                    std::string::npos);
        }
        {
            PartAudit audit = auditOf(spec, counted(1e300));
            const Shown first = shown(spec, 0, kMembers);
            const Shown second = shown(spec, 2, kMembers - 1);
            QCOMPARE(audit.add(first.part, first.data), std::string());
            QVERIFY(audit.add(second.part, second.data).find("then 3") != std::string::npos);
        }
    }

    // The spans a member audits: others' spans only, never its own, a client's (none) or a banned member's;
    // drawn anew each round.
    void theAuditedSpansAreOthersDrawnAtRandom() {
        collab::GroupSpec spec = group(collab::TensorEncoding::fp16());
        spec.spanCounts = {10, 10, 0, 10};
        const std::string& self = spec.members[0].peerId;
        std::mt19937_64 random(3);
        std::set<std::string> seen;
        for (int round = 0; round < 50; ++round) {
            const std::vector<std::string> audited =
                collab::AuditChoice::pick(spec, self, {spec.members[3].peerId}, 2, random);
            QCOMPARE(audited, std::vector<std::string>{spec.members[1].peerId});
            const std::vector<std::string> two = collab::AuditChoice::pick(spec, self, {}, 1, random);
            QCOMPARE(two.size(), std::size_t(1));
            QVERIFY(two[0] == spec.members[1].peerId || two[0] == spec.members[3].peerId);
            seen.insert(two[0]);
        }
        QCOMPARE(seen.size(), std::size_t(2));
        QVERIFY(collab::AuditChoice::pick(spec, self, {}, 0, random).empty());
    }

    void withheldInputsProveNothing() {
        const collab::GroupSpec spec = group(collab::TensorEncoding::fp16());
        // It says it shows one input, its own: the rest of the group's inputs are missing.
        PartAudit audit = auditOf(spec, counted(1e300));
        const Shown own = shown(spec, kAggregator, 1);
        QCOMPARE(audit.add(own.part, own.data), std::string());
        QVERIFY(audit.complete());
        const PartAudit::Verdict verdict = audit.judge(inputs_[kAggregator]);
        QVERIFY(verdict.kind == Kind::Unproven);
        QVERIFY2(verdict.why.find("too few") != std::string::npos, verdict.why.c_str());
    }
};

QTEST_GUILESS_MAIN(TestPartAudit)
#include "tst_part_audit.moc"
