// TokenBucket paces to a cap exactly (worked out by hand below); RateMeter reports achieved rates.
#include "core/net/ConnectionPacer.h"
#include "core/net/LinkBandwidth.h"
#include "core/net/RateMeter.h"
#include "core/net/TokenBucket.h"

#include <QtTest>

using namespace sahaj::net;
using namespace std::chrono_literals;
using Clock = TokenBucket::Clock;

class TestBandwidth : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void tokenBucketPacesToTheCap() {
        const Clock::time_point t0{};
        TokenBucket bucket(1000.0, 500.0, t0);        // 1000 B/s, 500 B burst, full at start
        QCOMPARE(bucket.reserve(400, t0).count(), 0); // 100 left
        QCOMPARE(bucket.reserve(600, t0), std::chrono::nanoseconds(500ms)); // 500 B of debt: 0.5 s
        // 0.25 s later 250 B came back: still 250 B of debt.
        QCOMPARE(bucket.reserve(0, t0 + 250ms), std::chrono::nanoseconds(250ms));
        // Long idle: refills to the burst only.
        QCOMPARE(bucket.reserve(500, t0 + 100s).count(), 0);
        QCOMPARE(bucket.reserve(1, t0 + 100s), std::chrono::nanoseconds(1ms));

        // Over a long run of sends, the total time is bytes / rate (less the initial burst).
        TokenBucket paced(1e6, 64e3, t0);
        Clock::time_point now = t0;
        for (int i = 0; i < 100; ++i)
            now += paced.reserve(100000, now);
        // 10 MB at 1 MB/s after a 64 kB burst: 9.936 s.
        QCOMPARE(std::chrono::duration_cast<std::chrono::milliseconds>(now - t0).count(), 9936);

        TokenBucket unlimited(0.0, 0.0, t0);
        QCOMPARE(unlimited.reserve(1 << 30, t0).count(), 0);
        unlimited.setRate(100.0, t0);
        QCOMPARE(unlimited.reserve(100, t0), std::chrono::nanoseconds(1s));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, TokenBucket(-1.0, 0.0));
    }

    void rateMeterFollowsTransfers() {
        RateMeter meter(64e6, 1e6);
        meter.add(500000, 500ms);
        QCOMPARE(meter.bytesPerSecond(), 0.0); // not enough measured yet
        meter.add(500000, 500ms);
        QVERIFY(std::abs(meter.bytesPerSecond() - 1e6) < 1.0);
        meter.add(0, 1s);     // ignored
        meter.add(1000, 0ns); // ignored
        QVERIFY(std::abs(meter.bytesPerSecond() - 1e6) < 1.0);
        // The link becomes 10× faster: after many half-lives the figure follows.
        for (int i = 0; i < 100; ++i)
            meter.add(10000000, 1s);
        QVERIFY(std::abs(meter.bytesPerSecond() - 1e7) < 1e7 * 0.01);
    }

    void linkBandwidthIsMeasuredAndCapped() {
        LinkBandwidth link(1e6);
        QCOMPARE(link.bytesPerSecond(), 1e6); // nothing measured, no cap: the default
        link.setCaps(4e5, 0.0);
        QCOMPARE(link.bytesPerSecond(), 4e5); // the cap stands in for the unmeasured upload
        for (int i = 0; i < 4; ++i) {
            link.upload().add(1'000'000, 500ms);   // 2 MB/s achieved up
            link.download().add(1'000'000, 200ms); // 5 MB/s achieved down
        }
        QCOMPARE(link.bytesPerSecond(), 4e5); // measured 2e6 up, but the user capped it at 4e5
        link.setCaps(0.0, 0.0);
        QVERIFY(std::abs(link.bytesPerSecond() - 2e6) < 1.0);     // the slower direction, as measured
        QVERIFY(std::abs(link.valuesPerSecond(2.0) - 1e6) < 1.0); // fp16 values
        link.setCaps(0.0, 3e6);
        QVERIFY(std::abs(link.bytesPerSecond() - 2e6) < 1.0); // a cap above the measured rate changes nothing
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, link.setCaps(-1.0, 0.0));
    }

    void pacingFollowsTheBestRateShown() {
        LinkBandwidth link(1e6);
        QCOMPARE(link.pacingBytesPerSecond(), 0.0); // a guess paces nothing
        link.addRound(4'000'000, 2'000'000, 1s);    // 4 MB/s up, 2 MB/s down: 2 MB/s
        QVERIFY(!link.guessed());
        QVERIFY(std::abs(link.pacingBytesPerSecond() - ConnectionPacer::rateFor(2e6)) < 1.0);
        // A round held up by a timeout lowers the measured figure, and with it what this peer declares,
        // but not the pacing: that would slow the next round, and lower the figure again.
        link.addRound(1'000'000, 1'000'000, 30s);
        QVERIFY(link.bytesPerSecond() < 2e5);
        QVERIFY(std::abs(link.pacingBytesPerSecond() - ConnectionPacer::rateFor(2e6)) < 1.0);
        // A faster round raises it.
        for (int i = 0; i < 100; ++i)
            link.addRound(8'000'000, 8'000'000, 1s);
        QVERIFY(link.pacingBytesPerSecond() > ConnectionPacer::rateFor(7e6));

        // Caps alone are no guess: the cap is the figure.
        LinkBandwidth capped(1e6);
        capped.setCaps(3e6, 0.0);
        QVERIFY(capped.guessed()); // the download has neither
        capped.setCaps(3e6, 5e6);
        QVERIFY(std::abs(capped.pacingBytesPerSecond() - ConnectionPacer::rateFor(3e6)) < 1.0);
    }
};

QTEST_GUILESS_MAIN(TestBandwidth)
#include "tst_bandwidth.moc"
