// WeightBounds: the most weight a member's parts may carry, from its signed progress or its declaration.
#include "core/collab/WeightBounds.h"

#include <QTest>

#include <cmath>

using namespace sahaj::collab;
using namespace std::chrono_literals;

class TestWeightBounds : public QObject {
    Q_OBJECT

    struct Figures {
        std::uint64_t epoch;
        std::uint64_t samples;
        double rate;
    };
    // A group of one member at `epoch` that declared `weight`, and that member's record.
    static std::pair<GroupSpec, PeerProgress> oneMember(std::uint64_t epoch, double weight, Figures figures,
                                                        std::chrono::system_clock::time_point measuredAt) {
        GroupSpec spec;
        spec.epoch = epoch;
        GroupMember member;
        member.peerId = std::string(32, 'e');
        member.weight = weight;
        spec.members.push_back(member);
        PeerProgress record;
        record.peerId = member.peerId;
        record.epoch = figures.epoch;
        record.samplesAccumulated = figures.samples;
        record.samplesPerSecond = figures.rate;
        record.measuredAt = std::chrono::time_point_cast<std::chrono::milliseconds>(measuredAt);
        return {spec, record};
    }

private Q_SLOTS:
    void boundsFollowTheReportedSamples() {
        GroupSpec spec;
        spec.epoch = 7;
        for (const double weight : {100.0, 40.0, 0.0}) {
            GroupMember member;
            member.peerId = std::string(32, static_cast<char>('a' + spec.members.size()));
            member.weight = weight;
            spec.members.push_back(member);
        }
        const auto now = std::chrono::system_clock::now();
        PeerProgress fast; // reported 500 samples 10 s ago, at 20 per second
        fast.peerId = spec.members[1].peerId;
        fast.epoch = 7;
        fast.samplesAccumulated = 500;
        fast.samplesPerSecond = 20.0;
        fast.measuredAt = std::chrono::time_point_cast<std::chrono::milliseconds>(now - 10s);
        PeerProgress stale =
            fast; // the previous epoch: its samples say nothing about this one, its rate does
        stale.peerId = spec.members[0].peerId;
        stale.epoch = 6;
        stale.samplesAccumulated = 1'000'000;
        stale.samplesPerSecond = 2.0;

        const std::vector<double> bounds = WeightBounds::of(spec, {fast, stale}, now);
        QCOMPARE(bounds.size(), std::size_t{3});
        // Its declaration, and what it can have trained since its last record at its reported rate.
        QVERIFY(std::abs(bounds[0] - (2.0 * (100 + 2.0 * (10 + 30)) + 256)) < 1.0);
        // Its record, extrapolated (the record's time is kept to the millisecond).
        QVERIFY(std::abs(bounds[1] - (2.0 * (500 + 20.0 * (10 + 30)) + 256)) < 1.0);
        // Weight 0 and no record: the members' typical declaration (the lower median of 100 and 40), what
        // their typical rate (the lower median of 20 and 2) trains in the slack, and a few micro-batches.
        QCOMPARE(bounds[2], 2.0 * (40 + 2.0 * 30) + 256);
        // An honest member that trained since joining stays within; 100 times its word does not.
        QVERIFY(1300.0 <= bounds[1]);
        QVERIFY(100.0 * 100 > bounds[0]);
    }

    // A record measured long ago (a day is what a record may carry) grants its rate for at most
    // kMaxExtrapolation, not for the whole day.
    void anOldRecordIsExtrapolatedForALimitedTime() {
        const auto now = std::chrono::system_clock::now();
        const auto [spec, old] = oneMember(3, 10, {3, 10, 1000.0}, now - 24h);
        const std::vector<double> bounds = WeightBounds::of(spec, {old}, now);
        QCOMPARE(bounds.size(), std::size_t{1});
        QCOMPARE(bounds[0], 2.0 * (10 + 1000.0 * (600 + 30)) + 256);
    }

    // A member that joined early (declaring 24 samples) and trained on until the batch was full, whose
    // newest record the aggregator holds is of the previous epoch: what it hands over is within its bound
    // (the case that had an honest member banned), a hundred times that is not.
    void aMemberThatJoinedEarlyKeepsTraining() {
        const auto now = std::chrono::system_clock::now();
        const auto [spec, previous] = oneMember(4, 24, {3, 160, 150.0}, now - 2s);
        const double bound = WeightBounds::of(spec, {previous}, now).front();
        QVERIFY2(576.0 <= bound, qPrintable(QString::number(bound)));
        QVERIFY2(576.0 * 100 > bound, qPrintable(QString::number(bound)));
    }

    // A newcomer whose only record was published before its first micro-batch (rate 0), in a group whose
    // other member trains at 40 samples/s: the 312 samples it trained between joining and handing over are
    // within its bound (held to its rate of 0 it was banned, bound 256, in a run's first round), a hundred
    // times that is not. With no member's rate known, nothing bounds what it trained since declaring: no
    // bound (a fast honest peer was banned by 2 × its declaration), and its say is still capped.
    void aNewcomerWithoutARateIsHeldToTheTypicalOne() {
        const auto now = std::chrono::system_clock::now();
        auto [spec, newcomer] = oneMember(0, 0, {0, 0, 0.0}, now - 1s);
        GroupMember other;
        other.peerId = std::string(32, 'f');
        other.weight = 200;
        spec.members.push_back(other);
        PeerProgress trainer = newcomer;
        trainer.peerId = other.peerId;
        trainer.samplesPerSecond = 40.0;
        const double bound = WeightBounds::of(spec, {newcomer, trainer}, now).front();
        QVERIFY2(312.0 <= bound, qPrintable(QString::number(bound)));
        QVERIFY2(312.0 * 100 > bound, qPrintable(QString::number(bound)));
        trainer.samplesPerSecond = 0.0;
        const double unknownRates = WeightBounds::of(spec, {newcomer, trainer}, now).front();
        QVERIFY(std::isinf(unknownRates));
        // The estimate the cap is made of takes nobody's word beyond its own.
        QCOMPARE(WeightBounds::countedAtMost(spec, {newcomer, trainer}, now).front(), 2.0 * 200);
    }

    // A member that claims 10^12 samples everywhere (its record, its declaration) stays within its own
    // bound, but counts for at most twice the group's lower median claim; so does a fast honest member.
    void aMembersWeightCountsForAtMostTwiceTheMedianClaim() {
        GroupSpec spec;
        spec.epoch = 4;
        for (const double weight : {100.0, 40.0, 0.0, 1e12, 300.0}) {
            GroupMember member;
            member.peerId = std::string(32, static_cast<char>('a' + spec.members.size()));
            member.weight = weight;
            spec.members.push_back(member);
        }
        const auto now = std::chrono::system_clock::now();
        // The liar's record backs its declaration: its own bound lets 10^12 through.
        PeerProgress liar;
        liar.peerId = spec.members[3].peerId;
        liar.epoch = 4;
        liar.samplesAccumulated = 1'000'000'000'000;
        liar.measuredAt = std::chrono::time_point_cast<std::chrono::milliseconds>(now);
        QVERIFY(WeightBounds::of(spec, {liar}, now)[3] > 1e12);
        // Contributors 40, 100, 300 and 10^12 (the member at 0 is no contributor): lower median 100.
        const std::vector<double> counted = WeightBounds::countedAtMost(spec, {liar}, now);
        QCOMPARE(counted, std::vector<double>(5, 200.0));
        // Nobody claims anything: nothing to cap by.
        GroupSpec empty = spec;
        for (GroupMember& member : empty.members)
            member.weight = 0.0;
        QVERIFY(std::isinf(WeightBounds::countedAtMost(empty, {}, now).front()));
    }
};

QTEST_GUILESS_MAIN(TestWeightBounds)
#include "tst_weight_bounds.moc"
