// The run's time from exchanges with the coordinator (net::CoordinatorClock): the coordinator's stamp
// against the middle of the round trip, loose or impossible exchanges ignored, the newest good one kept.
#include "core/net/CoordinatorClock.h"

#include <QTest>

using namespace sahaj::net;
using namespace std::chrono_literals;

namespace {

CoordinatorClock::Clock::time_point at(std::int64_t ms) {
    return CoordinatorClock::Clock::time_point(std::chrono::milliseconds(ms));
}

} // namespace

class TestCoordinatorClock : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void unmeasuredIsThisClock() {
        const CoordinatorClock clock;
        QVERIFY(!clock.measured());
        QCOMPARE(clock.offset(), 0ms);
    }

    void theStampIsReadAgainstTheMiddleOfTheRoundTrip() {
        CoordinatorClock clock;
        // Sent at 1 000 000, answered 400 ms later; the coordinator stamped its answer 30 s ahead of the
        // middle: this clock is 30 s behind.
        clock.noteExchange(1'000'200 + 30'000, at(1'000'000), at(1'000'400));
        QVERIFY(clock.measured());
        QCOMPARE(clock.offset(), 30000ms);
        // A clock ahead reads a negative offset.
        clock.noteExchange(2'000'100 - 30'000, at(2'000'000), at(2'000'200));
        QCOMPARE(clock.offset(), -30000ms);
        const auto now = CoordinatorClock::Clock::now();
        QVERIFY(clock.now() < now - 29s && clock.now() > now - 31s);
    }

    void looseOrImpossibleExchangesAreIgnored() {
        CoordinatorClock clock;
        clock.noteExchange(1'000'000 + 500, at(1'000'000), at(1'001'000));
        QCOMPARE(clock.offset(), 0ms);
        // A round trip past kMaxRoundTrip: the stamp could be anywhere in it.
        clock.noteExchange(5'000'000, at(1'000'000),
                           at(1'000'000 + CoordinatorClock::kMaxRoundTrip.count() + 1));
        QCOMPARE(clock.offset(), 0ms);
        // Answered before it was sent: this clock was set back meanwhile.
        clock.noteExchange(5'000'000, at(1'000'000), at(999'000));
        QCOMPARE(clock.offset(), 0ms);
        // A stamp past what any clock reads (only the codec's replay window stands before it) is clamped,
        // not wrapped into a negative offset.
        clock.noteExchange(UINT64_MAX, at(1'000'000), at(1'000'010));
        QVERIFY(clock.offset() > 0ms);
    }
};

QTEST_GUILESS_MAIN(TestCoordinatorClock)
#include "tst_coordinator_clock.moc"
