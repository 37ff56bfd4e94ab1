// Progress tracking: the global epoch, extrapolated samples and its cap, the ETA, readiness, the throughput
// estimate with its bias correction and pauses, the refresh schedule, matchmaking lead and untrusted records.
#include "core/collab/GlobalProgress.h"
#include "core/collab/PeerProgress.h"
#include "core/collab/PeerProgressRules.h"
#include "core/collab/ProgressAggregator.h"
#include "core/collab/ProgressRefreshPolicy.h"
#include "core/collab/ProgressTracker.h"
#include "core/collab/ThroughputEstimator.h"
#include "tests/common/TestFiles.h"

#include <QTest>

#include <chrono>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

using namespace sahaj::collab;
using namespace std::chrono_literals;
using TimePoint = std::chrono::system_clock::time_point;
using Steady = ThroughputEstimator::Clock;

namespace {

// A fixed wall-clock origin: every time in these tests is an exact offset from it.
const TimePoint t0 = TimePoint(std::chrono::seconds(1'700'000'000));

std::string idOf(char tag) {
    return std::string(PeerProgressRules::kPeerIdSize, tag);
}

WallTimeMs wall(TimePoint time) {
    return std::chrono::floor<std::chrono::milliseconds>(time);
}

// A record measured at t0 that lives ten minutes; tests adjust what they need.
PeerProgress record(char tag, std::uint64_t epoch, std::uint64_t samples, double rate, bool client = false) {
    PeerProgress r;
    r.peerId = idOf(tag);
    r.epoch = epoch;
    r.samplesAccumulated = samples;
    r.samplesPerSecond = rate;
    r.measuredAt = wall(t0);
    r.clientMode = client;
    r.expiresAt = wall(t0 + 10min);
    return r;
}

// Milliseconds from t0 to `time`: time points compared as plain numbers, so failures print them.
qint64 msFromT0(TimePoint time) {
    return std::chrono::duration_cast<std::chrono::milliseconds>(time - t0).count();
}

GlobalProgress progressWithEta(std::optional<TimePoint> eta) {
    GlobalProgress progress;
    progress.targetBatchSize = 1000;
    progress.eta = eta;
    progress.at = t0;
    return progress;
}

ProgressTrackerOptions trackerOptions(std::uint64_t target) {
    ProgressTrackerOptions options;
    options.peerId = idOf('L');
    options.targetBatchSize = target;
    return options;
}

} // namespace

class TestProgressTracker : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void globalEpochFollowsNodesNotClientsOrStragglers() {
        // Nodes A and D at 5, node B at 4 (a straggler): two of three reached 5, a quorum. Client C at 7
        // does not move it. At epoch 5 count A (100 samples, 20/s), client E (60, 20/s) and D, which
        // contributes nothing: 160 samples, 40/s; B's 900 samples and 50/s belong to epoch 4 and C's to 7.
        // All measured at t0 = now, so nothing is extrapolated. ETA = t0 + (1000 − 160) / 40 = t0 + 21 s.
        const ProgressAggregator aggregator(1000, 30s);
        const std::vector<PeerProgress> records = {record('A', 5, 100, 20), record('B', 4, 900, 50),
                                                   record('C', 7, 50, 5, true), record('E', 5, 60, 20, true),
                                                   record('D', 5, 0, 0)};
        const GlobalProgress progress = aggregator.aggregate(records, 0, t0);
        QCOMPARE(progress.epoch, std::uint64_t{5});
        QCOMPARE(progress.samplesReported, std::uint64_t{160});
        QCOMPARE(progress.samplesAccumulated, 160.0);
        QCOMPARE(progress.samplesPerSecond, 40.0);
        QVERIFY(progress.eta);
        QCOMPARE(msFromT0(*progress.eta), qint64{21'000});
        QCOMPARE(progress.peers, 5);
        QCOMPARE(progress.clients, 2);
        QCOMPARE(progress.targetBatchSize, std::uint64_t{1000});

        // Clients alone: the epoch a quorum of them reached (both are at 6 or beyond), counting only E.
        const GlobalProgress clientsOnly =
            aggregator.aggregate({record('C', 7, 50, 5, true), record('E', 6, 60, 30, true)}, 0, t0);
        QCOMPARE(clientsOnly.epoch, std::uint64_t{6});
        QCOMPARE(clientsOnly.samplesReported, std::uint64_t{60});
        QCOMPARE(clientsOnly.samplesPerSecond, 30.0);

        // Nobody: the local epoch, no samples, no rate, no ETA.
        const GlobalProgress nobody = aggregator.aggregate({}, 3, t0);
        QCOMPARE(nobody.epoch, std::uint64_t{3});
        QCOMPARE(nobody.peers, 0);
        QCOMPARE(nobody.samplesAccumulated, 0.0);
        QVERIFY(!nobody.eta);
    }

    // Admitted is not trusted (docs/security.md): one peer claiming a far epoch is not followed; a quorum of
    // the other nodes, or the coordinator, is.
    void aLoneClaimOfAFarEpochIsNotFollowed() {
        QCOMPARE(ProgressAggregator::epochQuorum(0), std::size_t{0});
        QCOMPARE(ProgressAggregator::epochQuorum(1), std::size_t{1});
        QCOMPARE(ProgressAggregator::epochQuorum(2), std::size_t{2});
        QCOMPARE(ProgressAggregator::epochQuorum(5), std::size_t{2});
        QCOMPARE(ProgressAggregator::epochQuorum(6), std::size_t{3});
        QCOMPARE(ProgressAggregator::epochQuorum(39), std::size_t{14});

        const ProgressAggregator aggregator(1000, 30s);
        const std::uint64_t farthest = std::numeric_limits<std::uint64_t>::max();
        // This peer L at 5 with B and C at 5; X claims 7, then 2^64 − 1: the collaboration stays at 5,
        // nobody is behind, and X's claim is reported as not followed.
        for (const std::uint64_t claim : {std::uint64_t{7}, farthest}) {
            const std::vector<PeerProgress> records = {record('L', 5, 10, 1), record('B', 5, 10, 1),
                                                       record('C', 5, 10, 1), record('X', claim, 10, 1)};
            const GlobalProgress progress = aggregator.aggregate(records, 5, t0, idOf('L'));
            QCOMPARE(progress.epoch, std::uint64_t{5});
            QCOMPARE(progress.peers, 4);
            QCOMPARE(progress.peersAtEpoch, 3); // L, B and C: not X
            QVERIFY(!progress.readyToEndEpoch(5, t0));
            QCOMPARE(progress.unfollowed.size(), std::size_t{1});
            QCOMPARE(progress.unfollowed.front().first, idOf('X'));
            QCOMPARE(progress.unfollowed.front().second, claim);
        }
        // Two of the three others at 6 (a group that stepped without this peer): followed at once.
        const GlobalProgress quorum = aggregator.aggregate(
            {record('L', 5, 10, 1), record('B', 6, 0, 1), record('C', 5, 10, 1), record('X', 6, 0, 1)}, 5, t0,
            idOf('L'));
        QCOMPARE(quorum.epoch, std::uint64_t{6});
        QVERIFY(quorum.readyToEndEpoch(5, t0));
        // The coordinator alone is followed: its token's role is the organiser's word.
        PeerProgress coordinator = record('K', 6, 0, 0);
        coordinator.coordinator = true;
        const GlobalProgress led = aggregator.aggregate(
            {record('L', 5, 10, 1), record('B', 5, 10, 1), record('C', 5, 10, 1), coordinator}, 5, t0,
            idOf('L'));
        QCOMPARE(led.epoch, std::uint64_t{6});
        // A single other node is all a newcomer has to go by: followed.
        QCOMPARE(aggregator.aggregate({record('L', 0, 0, 0), record('B', 9, 0, 1)}, 0, t0, idOf('L')).epoch,
                 std::uint64_t{9});
        // This peer's own epoch is never undercut by the others'.
        QCOMPARE(aggregator.aggregate({record('B', 3, 0, 1), record('C', 3, 0, 1)}, 4, t0, idOf('L')).epoch,
                 std::uint64_t{4});
        // The tracker does the same with what it fetched: X alone at 7 does not make this peer behind.
        ProgressTracker tracker(trackerOptions(1000), 5);
        tracker.update({record('B', 5, 10, 1), record('C', 5, 10, 1), record('X', 7, 10, 1)}, t0);
        QCOMPARE(tracker.globalProgress(t0).epoch, std::uint64_t{5});
        QVERIFY(!tracker.readyToEndEpoch(t0));
    }

    // One record claiming the whole batch (10^12 samples at 10^9 per second, the most the rules let
    // through) counts for at most twice the median contributor: the epoch does not end after a micro-batch.
    void oneRecordCannotFillTheBatch() {
        const ProgressAggregator aggregator(1000, 30s);
        const PeerProgress liar = record('X', 2, PeerProgressRules::kMaxSamples, 1e9);
        // L (this peer) and B at 100 samples, 10/s: X counts 200 samples and 20/s. 400 of 1000 at 40/s:
        // ETA t0 + 15 s, not now.
        const GlobalProgress progress =
            aggregator.aggregate({record('L', 2, 100, 10), record('B', 2, 100, 10), liar}, 2, t0, idOf('L'));
        QCOMPARE(progress.samplesAccumulated, 400.0);
        QCOMPARE(progress.samplesReported, std::uint64_t{400});
        QCOMPARE(progress.samplesPerSecond, 40.0);
        QVERIFY(!progress.targetReached());
        QCOMPARE(msFromT0(*progress.eta), qint64{15'000});
        QVERIFY(!progress.readyToEndEpoch(2, t0 + 14s));
        // With only this peer beside it, the liar counts twice this peer's figures: the lower median of
        // one honest peer and one liar is the honest one.
        const GlobalProgress pair = aggregator.aggregate({record('L', 2, 100, 10), liar}, 2, t0, idOf('L'));
        QCOMPARE(pair.samplesAccumulated, 300.0);
        QCOMPARE(pair.samplesPerSecond, 30.0);
        // This peer's own figures are measured here and count in full, however far above the others'.
        const GlobalProgress fastSelf = aggregator.aggregate(
            {record('L', 2, 900, 90), record('B', 2, 50, 5), record('C', 2, 50, 5)}, 2, t0, idOf('L'));
        QCOMPARE(fastSelf.samplesAccumulated, 1000.0);
        QVERIFY(fastSelf.targetReached());
        // Through the tracker, which names this peer: the same bound.
        ProgressTracker tracker(trackerOptions(1000), 2);
        tracker.reportLocal(100, 10, t0);
        tracker.update({record('B', 2, 100, 10), liar}, t0);
        QCOMPARE(tracker.globalProgress(t0).samplesAccumulated, 400.0);
        QVERIFY(!tracker.readyToEndEpoch(t0));
    }

    void samplesAreExtrapolatedWithinTheCap() {
        // now = t0 + 20 s, cap 30 s.
        //   A: 100 samples at 4/s measured t0:                    100 + 4·20 = 180
        //   B: 10 samples at 2/s measured t0 − 40 s (60 s old):   10 + 2·30 = 70, not 10 + 2·60 = 130
        //   C: 5 samples at 2/s measured t0 + 25 s (clock ahead): 5 + 0 = 5
        // accumulated 255 (reported 115), rate 8; target 1055 → ETA = now + 800 / 8 = now + 100 s.
        const ProgressAggregator aggregator(1055, 30s);
        PeerProgress b = record('B', 0, 10, 2);
        b.measuredAt = wall(t0 - 40s);
        PeerProgress c = record('C', 0, 5, 2);
        c.measuredAt = wall(t0 + 25s);
        const TimePoint now = t0 + 20s;
        QCOMPARE(aggregator.samplesAt(record('A', 0, 100, 4), now), 180.0);
        QCOMPARE(aggregator.samplesAt(b, now), 70.0);
        QCOMPARE(aggregator.samplesAt(c, now), 5.0);

        // A is this peer (the others' figures are bounded by twice the median's, which A's would pass).
        const GlobalProgress progress =
            aggregator.aggregate({record('A', 0, 100, 4), b, c}, 0, now, idOf('A'));
        QCOMPARE(progress.samplesReported, std::uint64_t{115});
        QCOMPARE(progress.samplesAccumulated, 255.0);
        QCOMPARE(progress.samplesPerSecond, 8.0);
        QCOMPARE(msFromT0(*progress.eta), qint64{120'000});

        // A cap of 0 reports the figures as published: 115 samples, ETA = now + 940 / 8 = now + 117.5 s.
        const GlobalProgress unextrapolated =
            ProgressAggregator(1055, 0ms).aggregate({record('A', 0, 100, 4), b, c}, 0, now, idOf('A'));
        QCOMPARE(unextrapolated.samplesAccumulated, 115.0);
        QCOMPARE(msFromT0(*unextrapolated.eta), qint64{137'500});
    }

    void expiredRecordsAreIgnored() {
        // Node X at epoch 9 expired exactly now: it neither sets the epoch nor counts. Y expires 1 ms later.
        const ProgressAggregator aggregator(1000, 30s);
        PeerProgress x = record('X', 9, 500, 100);
        x.expiresAt = wall(t0 + 5s);
        PeerProgress y = record('Y', 2, 40, 8);
        y.expiresAt = wall(t0 + 5s + 1ms);
        const GlobalProgress progress = aggregator.aggregate({x, y}, 0, t0 + 5s);
        QCOMPARE(progress.epoch, std::uint64_t{2});
        QCOMPARE(progress.peers, 1);
        // Y: 40 + 8·5 = 80 samples at 8/s → ETA = now + 920 / 8 = now + 115 s.
        QCOMPARE(progress.samplesAccumulated, 80.0);
        QCOMPARE(msFromT0(*progress.eta), qint64{120'000});
    }

    void etaWithZeroRate() {
        const ProgressAggregator aggregator(1000, 30s);
        // 400 of 1000 samples and nobody computing: no ETA, not ready.
        const GlobalProgress stalled =
            aggregator.aggregate({record('A', 1, 400, 0), record('B', 1, 0, 0)}, 1, t0);
        QCOMPARE(stalled.samplesPerSecond, 0.0);
        QVERIFY(!stalled.eta);
        QVERIFY(!stalled.readyToEndEpoch(1, t0 + 24h));
        // The target reached without any rate: the ETA is now.
        const GlobalProgress full =
            aggregator.aggregate({record('A', 1, 600, 0), record('B', 1, 400, 0)}, 1, t0);
        QVERIFY(full.targetReached());
        QCOMPARE(msFromT0(*full.eta), qint64{0});
        // A rate so small the batch would take longer than a year is no ETA either.
        const GlobalProgress glacial = aggregator.aggregate({record('A', 1, 0, 1e-9)}, 1, t0);
        QVERIFY(!glacial.eta);
    }

    void readiness() {
        // By target: 1000 of 1000.
        const ProgressAggregator aggregator(1000, 30s);
        QVERIFY(aggregator.aggregate({record('A', 5, 1000, 0)}, 5, t0).readyToEndEpoch(5, t0));

        // By ETA: the snapshot at t0 says 160 samples at 40/s, ETA t0 + 21 s. Not ready 1 ms before it,
        // ready from then on, though the snapshot's own samples are still 160.
        const GlobalProgress snapshot =
            aggregator.aggregate({record('A', 5, 100, 20), record('E', 5, 60, 20, true)}, 5, t0);
        QVERIFY(!snapshot.targetReached());
        QVERIFY(!snapshot.readyToEndEpoch(5, t0 + 20'999ms));
        QVERIFY(snapshot.readyToEndEpoch(5, t0 + 21s));

        // By a peer ahead: the global epoch 5 is past a local 4, at once.
        QVERIFY(snapshot.readyToEndEpoch(4, t0));
        QVERIFY(!snapshot.readyToEndEpoch(5, t0));

        // The tracker at epoch 4 sees node B at epoch 5: ready, though its own batch is empty.
        ProgressTracker tracker(trackerOptions(1000), 4);
        tracker.update({record('B', 5, 10, 1)}, t0);
        QVERIFY(tracker.readyToEndEpoch(t0));
        // A client ahead does not count as a peer ahead while a node decides the epoch.
        ProgressTracker behindClient(trackerOptions(1000), 4);
        behindClient.update({record('C', 5, 10, 1, true)}, t0);
        QCOMPARE(behindClient.globalProgress(t0).epoch, std::uint64_t{4});
        QVERIFY(!behindClient.readyToEndEpoch(t0));
    }

    void throughputBiasCorrection() {
        ThroughputEstimator estimator(0.9);
        QCOMPARE(estimator.samplesPerSecond(), 0.0); // unknown before the first measurement
        // 1: x = 1 s / 2 samples = 0.5; ema = 0.1·0.5 = 0.05; corrected 0.05 / (1 − 0.9) = 0.5 → 2/s.
        estimator.update(2, 1.0);
        QCOMPARE(estimator.secondsPerSample(), 0.5);
        QCOMPARE(estimator.samplesPerSecond(), 2.0);
        // 2: x = 0.25; ema = 0.9·0.05 + 0.1·0.25 = 0.07; corrected 0.07 / (1 − 0.81) = 7/19 → 19/7 per s.
        estimator.update(4, 1.0);
        QCOMPARE(estimator.secondsPerSample(), 7.0 / 19.0);
        QCOMPARE(estimator.samplesPerSecond(), 19.0 / 7.0);
        // 3: x = 1; ema = 0.9·0.07 + 0.1·1 = 0.163; corrected 0.163 / (1 − 0.729) = 163/271.
        estimator.update(1, 1.0);
        QCOMPARE(estimator.secondsPerSample(), 163.0 / 271.0);
        QCOMPARE(estimator.updates(), 3);

        // Decay 0 keeps only the last measurement.
        ThroughputEstimator last(0.0);
        last.update(10, 1.0);
        last.update(3, 1.5);
        QCOMPARE(last.samplesPerSecond(), 2.0);

        QVERIFY(sahaj::test::errorOf([] { ThroughputEstimator(1.0); }).contains("decay"));
        QVERIFY(sahaj::test::errorOf([&] { estimator.update(0, 1.0); }).contains("sample count"));
        QVERIFY(sahaj::test::errorOf([&] { estimator.update(1, std::nan("")); }).contains("duration"));
        QCOMPARE(estimator.updates(), 3);
    }

    void pausesAreExcludedFromRates() {
        const Steady::time_point s0{};
        ThroughputEstimator estimator(0.9);
        // Samples before the clock ever ran carry into the first measurement.
        estimator.recordSamples(5, s0);
        QCOMPARE(estimator.updates(), 0);
        estimator.resume(s0);
        // Train 1 s, average 10 s, train 2 s: 3 s of training for 8 + 5 carried samples.
        estimator.pause(s0 + 1s);
        estimator.resume(s0 + 11s);
        estimator.recordSamples(8, s0 + 13s);
        QCOMPARE(estimator.updates(), 1);
        QCOMPARE(estimator.secondsPerSample(), 3.0 / 13.0);
        // Next: 1 s for 4 samples, x = 0.25. ema = 0.9·(0.1·3/13) + 0.1·0.25; corrected by 1 − 0.81.
        estimator.recordSamples(4, s0 + 14s);
        QCOMPARE(estimator.secondsPerSample(), (0.9 * 0.1 * 3.0 / 13.0 + 0.1 * 0.25) / 0.19);

        // Recorded while paused: only the training time up to the pause counts (2 s for 4 samples).
        ThroughputEstimator paused(0.0);
        paused.resume(s0);
        paused.pause(s0 + 2s);
        paused.recordSamples(4, s0 + 60s);
        QCOMPARE(paused.samplesPerSecond(), 2.0);
        // restartInterval forgets the time since the last mark: 1 s for 3 samples.
        paused.resume(s0 + 70s);
        paused.restartInterval(s0 + 80s);
        paused.recordSamples(3, s0 + 81s);
        QCOMPARE(paused.samplesPerSecond(), 3.0);
    }

    void refreshPeriodFollowsTheEta() {
        ProgressRefreshPolicy policy; // 0.1 × time to ETA within [0.5 s, 30 s]
        using std::chrono::milliseconds;
        QCOMPARE(policy.periodFor(progressWithEta(t0 + 100s), t0).count(), 10'000);    // 0.1 × 100 s
        QCOMPARE(policy.periodFor(progressWithEta(t0 + 1s), t0).count(), 500);         // 0.1 s → min
        QCOMPARE(policy.periodFor(progressWithEta(t0 + 1000s), t0).count(), 30'000);   // 100 s → max
        QCOMPARE(policy.periodFor(progressWithEta(t0 - 5s), t0).count(), 500);         // passed → min
        QCOMPARE(policy.periodFor(progressWithEta(std::nullopt), t0).count(), 30'000); // no ETA → max
        QCOMPARE(policy.periodFor(progressWithEta(t0 + 24h * 365 * 100), t0).count(), 30'000);

        QVERIFY(policy.isDue(0, t0)); // never refreshed
        policy.refreshed(progressWithEta(t0 + 100s), 3, t0);
        QCOMPARE(msFromT0(*policy.nextRefreshAt()), qint64{10'000});
        QVERIFY(!policy.isDue(3, t0 + 9'999ms));
        QVERIFY(policy.isDue(3, t0 + 10s));
        QVERIFY(policy.isDue(4, t0 + 1s)); // the local epoch changed: at once

        ProgressRefreshOptions reversed;
        reversed.minPeriod = 40s;
        QVERIFY(sahaj::test::errorOf([&] { ProgressRefreshPolicy{reversed}; }).contains("periods"));
        ProgressRefreshOptions zeroFraction;
        zeroFraction.etaFraction = 0.0;
        QVERIFY(sahaj::test::errorOf([&] { ProgressRefreshPolicy{zeroFraction}; }).contains("fraction"));
    }

    void matchmakingStartsWithinTheLead() {
        // Local: 400 samples at 10/s; B: 300 at 10/s; both measured t0; target 1000.
        // At t0 + s: 700 + 20·s samples, ETA = t0 + 15 s whenever computed.
        ProgressTracker tracker(trackerOptions(1000));
        tracker.reportLocal(400, 10, t0);
        tracker.update({record('B', 0, 300, 10)}, t0);
        const GlobalProgress progress = tracker.globalProgress(t0);
        QCOMPARE(progress.samplesAccumulated, 700.0);
        QCOMPARE(progress.samplesPerSecond, 20.0);
        QCOMPARE(progress.peers, 2);
        QCOMPARE(msFromT0(*progress.eta), qint64{15'000});

        QVERIFY(!tracker.shouldStartMatchmaking(t0, 10s));      // 15 s away
        QVERIFY(tracker.shouldStartMatchmaking(t0, 15s));       // exactly the lead
        QVERIFY(!tracker.shouldStartMatchmaking(t0 + 4s, 10s)); // 11 s away
        QVERIFY(tracker.shouldStartMatchmaking(t0 + 5s, 10s));  // 10 s away
        QVERIFY(!tracker.readyToEndEpoch(t0 + 14'999ms));
        QVERIFY(tracker.readyToEndEpoch(t0 + 15s)); // 400 + 150 + 300 + 150 = 1000
        QVERIFY(tracker.shouldStartMatchmaking(t0 + 15s, 0ms));
    }

    // A slow peer (held to a fifth of the time) beside a fast one: the fast one's rate and samples count
    // for twice this peer's when the epoch's end is reckoned (a liar's could be anything), but for what
    // they claim when it decides to look for a group. Reckoned bounded, it looked for a group seconds after
    // the others' had begun, and lost its batch every epoch (bench/compute-limit.sh --load 4: 0.011 of the
    // unlimited volunteer's samples/s).
    void aSlowPeerLooksForAGroupWhenTheFastOnesDo() {
        // Local: 20 samples at 2/s; B: 200 at 50/s; target 1000. Bounded: B counts 40 samples at 4/s, ETA
        // (1000 − 60) / 6 ≈ 157 s. Claimed: (1000 − 220) / 52 = 15 s.
        ProgressTracker tracker(trackerOptions(1000));
        tracker.reportLocal(20, 2, t0);
        tracker.update({record('B', 0, 200, 50)}, t0);
        const GlobalProgress progress = tracker.globalProgress(t0);
        QCOMPARE(progress.samplesAccumulated, 60.0);
        QCOMPARE(progress.samplesPerSecond, 6.0);
        QVERIFY(msFromT0(*progress.eta) > 150'000);
        QCOMPARE(msFromT0(*progress.claimedEta), qint64{15'000});
        QVERIFY(tracker.shouldStartMatchmaking(t0 + 12s, 3s));
        QVERIFY(!tracker.shouldStartMatchmaking(t0 + 11s, 3s));
        // The epoch's end is still the bounded reckoning's: no group is released on B's word.
        QVERIFY(!tracker.readyToEndEpoch(t0 + 15s));
    }

    void localEpochBookkeeping() {
        ProgressTracker tracker(trackerOptions(1000), 2);
        // Before any report the figures are as of now.
        const PeerProgress initial = tracker.localRecord(t0);
        QCOMPARE(initial.peerId, idOf('L'));
        QCOMPARE(initial.epoch, std::uint64_t{2});
        QCOMPARE(initial.samplesAccumulated, std::uint64_t{0});
        QCOMPARE(msFromT0(initial.measuredAt), qint64{0});

        tracker.reportLocal(250, 12.5, t0 + 3s);
        const PeerProgress published = tracker.localRecord(t0 + 4s);
        QCOMPARE(published.samplesAccumulated, std::uint64_t{250});
        QCOMPARE(published.samplesPerSecond, 12.5);
        QCOMPARE(msFromT0(published.measuredAt), qint64{3'000}); // when measured, not when published
        QCOMPARE(msFromT0(published.expiresAt), qint64{64'000}); // published + 60 s ttl
        QVERIFY(!published.clientMode);

        tracker.onEpochCompleted(3, t0 + 5s);
        const PeerProgress next = tracker.localRecord(t0 + 5s);
        QCOMPARE(next.epoch, std::uint64_t{3});
        QCOMPARE(next.samplesAccumulated, std::uint64_t{0});
        QCOMPARE(next.samplesPerSecond, 12.5); // throughput carries over
        QCOMPARE(msFromT0(next.measuredAt), qint64{5'000});
        QVERIFY(sahaj::test::errorOf([&] {
                    tracker.onEpochCompleted(3, t0 + 6s);
                }).contains("epochs only increase"));

        // A node alone decides the epoch through its own record: 3, with no peer ahead.
        tracker.update({record('B', 2, 900, 100)}, t0 + 5s);
        QCOMPARE(tracker.globalProgress(t0 + 5s).epoch, std::uint64_t{3});
        QVERIFY(!tracker.readyToEndEpoch(t0 + 5s));

        QVERIFY(sahaj::test::errorOf([&] { tracker.reportLocal(1, std::nan(""), t0); }).contains("rate"));
        ProgressTrackerOptions shortId = trackerOptions(1000);
        shortId.peerId = "abc";
        QVERIFY(sahaj::test::errorOf([&] { ProgressTracker{shortId}; }).contains("3 bytes"));
        QVERIFY(
            sahaj::test::errorOf([&] { ProgressTracker{trackerOptions(0)}; }).contains("target batch size"));
    }

    void malformedRecordsAreIgnoredAndCounted() {
        PeerProgress shortId = record('A', 0, 10, 1);
        shortId.peerId.pop_back();
        PeerProgress nanRate = record('B', 0, 10, std::nan(""));
        PeerProgress negativeRate = record('C', 0, 10, -1);
        PeerProgress infiniteRate = record('D', 0, 10, std::numeric_limits<double>::infinity());
        PeerProgress absurdSamples = record('E', 0, PeerProgressRules::kMaxSamples + 1, 1);
        QVERIFY(PeerProgressRules::problemWith(shortId)->find("peer id") != std::string::npos);
        QVERIFY(PeerProgressRules::problemWith(absurdSamples)->find("sample count") != std::string::npos);
        QVERIFY(!PeerProgressRules::problemWith(record('F', 0, PeerProgressRules::kMaxSamples, 0)));

        // Valid G twice: the copy measured later (200 at 20/s) wins over the earlier one (900 at 90/s).
        PeerProgress olderG = record('G', 0, 900, 90);
        olderG.measuredAt = wall(t0 - 1s);
        PeerProgress ownEcho = record('L', 7, 999, 999); // this peer's own record read back: ignored
        PeerProgress expired = record('H', 7, 999, 999);
        expired.expiresAt = wall(t0);

        ProgressTracker tracker(trackerOptions(1000));
        tracker.update({shortId, nanRate, olderG, negativeRate, infiniteRate, absurdSamples,
                        record('G', 0, 200, 20), ownEcho, expired},
                       t0);
        QCOMPARE(tracker.rejectedRecords(), std::uint64_t{5});
        QCOMPARE(tracker.remotePeers(), std::size_t{1});
        // G's 200 at 20/s plus the local 0 at 0/s: ETA = t0 + 800 / 20 = t0 + 40 s; epoch 0 (the echo at 7
        // is not believed).
        const GlobalProgress progress = tracker.globalProgress(t0);
        QCOMPARE(progress.epoch, std::uint64_t{0});
        QCOMPARE(progress.peers, 2);
        QCOMPARE(progress.samplesAccumulated, 200.0);
        QCOMPARE(msFromT0(*progress.eta), qint64{40'000});

        // The next fetch adds to what is held (G's record lives on until it expires); rejections keep
        // counting.
        tracker.update({nanRate}, t0 + 1s);
        QCOMPARE(tracker.rejectedRecords(), std::uint64_t{6});
        QCOMPARE(tracker.remotePeers(), std::size_t{1});
        tracker.update({}, t0 + 12s); // no reading has had it for longer than the grace
        QCOMPARE(tracker.remotePeers(), std::size_t{0});

        // The aggregator alone skips what the rules refuse too.
        const GlobalProgress direct =
            ProgressAggregator(1000, 30s).aggregate({nanRate, record('G', 0, 200, 20)}, 0, t0);
        QCOMPARE(direct.peers, 1);
        QCOMPARE(direct.samplesPerSecond, 20.0);
    }

    // A reading cut short at its deadline brings some records only: the peers it missed are still counted,
    // with their newest record, while a reading had it within the grace and it is live; a newer record
    // replaces an older one, never the reverse; and what is held is bounded in count.
    void aReadingCutShortForgetsNobody() {
        ProgressTracker tracker(trackerOptions(4000));
        tracker.update({record('A', 3, 1000, 10), record('B', 3, 1000, 10), record('C', 3, 1000, 10)}, t0);
        PeerProgress newerA = record('A', 3, 1500, 10);
        newerA.measuredAt = wall(t0 + 3s);
        tracker.update({newerA}, t0 + 3s); // B and C did not come in time
        QCOMPARE(tracker.remotePeers(), std::size_t{3});
        QCOMPARE(tracker.peersAt(3, t0 + 3s).size(), std::size_t{3});
        QCOMPARE(tracker.globalProgress(t0 + 3s).peers, 4);  // three others and this peer
        tracker.update({record('A', 3, 1000, 10)}, t0 + 4s); // an older copy of A's record
        QCOMPARE(tracker.remoteRecords().front().samplesAccumulated, std::uint64_t{1500});
        PeerProgress shortLived = record('C', 3, 1000, 10);
        shortLived.measuredAt = wall(t0 + 4s);
        shortLived.expiresAt = wall(t0 + 5s);
        tracker.update({shortLived}, t0 + 4s);
        tracker.update({}, t0 + 5s);
        QCOMPARE(tracker.peersAt(3, t0 + 5s).size(), std::size_t{2}); // C's newest record expired
        // B was last read at t0: past the grace, a departed peer whose last record no reading had.
        tracker.update({newerA}, t0 + 3s + ProgressTracker::kUnseenGrace);
        QCOMPARE(tracker.peersAt(3, t0 + 3s + ProgressTracker::kUnseenGrace).size(), std::size_t{1});
        std::vector<PeerProgress> many;
        for (std::size_t i = 0; i < ProgressTracker::kMaxRemotePeers + 10; ++i) {
            PeerProgress r = record('x', 3, 10, 1);
            r.peerId = std::string(PeerProgressRules::kPeerIdSize - 8, 'x') + std::to_string(10'000'000 + i);
            many.push_back(r);
        }
        tracker.update(many, t0 + 6s);
        QCOMPARE(tracker.remotePeers(), ProgressTracker::kMaxRemotePeers);
        QVERIFY(
            std::is_sorted(tracker.remoteRecords().begin(), tracker.remoteRecords().end(),
                           [](const PeerProgress& a, const PeerProgress& b) { return a.peerId < b.peerId; }));
    }

    // The peers whose live records say they began a group's gradient round at an epoch: a record of
    // another group, another epoch, an expired one or one naming no group does not count, and a group id
    // that is not 16 bytes is refused with the record.
    void peersAveragingAreThoseWhoseRecordsSaySo() {
        const std::string group(16, 'g');
        const auto averaging = [&](char tag, std::uint64_t epoch, const std::string& id) {
            PeerProgress r = record(tag, epoch, 100, 10);
            r.averagingGroup = id;
            return r;
        };
        PeerProgress expired = averaging('E', 3, group);
        expired.expiresAt = wall(t0 + 1s);
        const PeerProgress badId = averaging('F', 3, std::string(5, 'g'));
        QVERIFY(PeerProgressRules::problemWith(badId)->find("averaging group") != std::string::npos);
        ProgressTracker tracker(trackerOptions(1000), 3);
        tracker.update({averaging('A', 3, group), averaging('B', 3, std::string(16, 'h')),
                        averaging('C', 2, group), averaging('D', 3, ""), expired, badId},
                       t0);
        QCOMPARE(tracker.rejectedRecords(), std::uint64_t{1});
        QCOMPARE(tracker.peersAveraging(group, 3, t0), (std::vector<std::string>{idOf('A'), idOf('E')}));
        QCOMPARE(tracker.peersAveraging(group, 3, t0 + 2s), std::vector<std::string>{idOf('A')});
        QVERIFY(tracker.peersAveraging("", 3, t0).empty()); // no group: nobody, not every record without one
    }
};

QTEST_GUILESS_MAIN(TestProgressTracker)
#include "tst_progress_tracker.moc"
