// Load balancing of the butterfly all-reduce (water filling, its tie-break, largest-remainder counts) checked
// against hand-worked cases and an independent LP solver, and the partition plan built on the counts.
#include "core/collab/LoadBalancer.h"
#include "core/collab/PartitionPlan.h"
#include "tests/collab/ReferenceLoadBalanceLp.h"
#include "tests/common/TestFiles.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>
#include <stdexcept>

using namespace sahaj::collab;
using Counts = std::vector<std::int64_t>;

namespace {

MemberBandwidth aggregator(double bandwidth) {
    return {bandwidth, true};
}

MemberBandwidth client(double bandwidth) {
    return {bandwidth, false};
}

// Relative closeness, with an absolute floor for times that are 0 (G = 1) up to rounding.
bool close(double a, double b, double relative) {
    return std::abs(a - b) <= relative * std::max(std::abs(a), std::abs(b)) + 1e-12;
}

// A member's time per value of the vector under `share` in a group of `groupSize`.
double timeOf(const MemberBandwidth& member, double share, std::size_t groupSize) {
    return (1.0 + (static_cast<double>(groupSize) - 2.0) * share) / member.bandwidth;
}

// The slowest time among members with a positive share and a known bandwidth, as LoadBalance defines it.
double slowestAggregatorTime(const std::vector<MemberBandwidth>& members, const std::vector<double>& shares) {
    double slowest = 0.0;
    for (std::size_t i = 0; i < members.size(); ++i) {
        if (shares[i] > 1e-12 && members[i].bandwidth > 0.0)
            slowest = std::max(slowest, timeOf(members[i], shares[i], members.size()));
    }
    return slowest;
}

} // namespace

class TestLoadBalancer : public QObject {
    Q_OBJECT

private:
    static QString errorOf(const std::vector<MemberBandwidth>& members) {
        return sahaj::test::errorOf([&] { LoadBalancer::solve(members); });
    }

    static void compareShares(const std::vector<double>& actual, const std::vector<double>& expected) {
        QCOMPARE(actual.size(), expected.size());
        for (std::size_t i = 0; i < actual.size(); ++i)
            QVERIFY2(close(actual[i], expected[i], 1e-12),
                     qPrintable(QStringLiteral("share %1: %2 != %3").arg(i).arg(actual[i]).arg(expected[i])));
    }

    // Feasibility of a returned split and that it achieves the reported ξ (up to rounding). Aggregators of
    // unknown bandwidth take a share only when no aggregator's bandwidth is known.
    static void verifySplit(const std::vector<MemberBandwidth>& members, const LoadBalance& balance) {
        QCOMPARE(balance.shares.size(), members.size());
        const bool anyKnownAggregator = std::any_of(members.begin(), members.end(), [](const auto& member) {
            return member.canAggregate && member.bandwidth > 0.0;
        });
        double sum = 0.0;
        double xi = 0.0;
        for (std::size_t i = 0; i < members.size(); ++i) {
            const double share = balance.shares[i];
            QVERIFY(share >= 0.0 && share <= 1.0);
            if (!members[i].canAggregate || (members[i].bandwidth == 0.0 && anyKnownAggregator))
                QCOMPARE(share, 0.0);
            sum += share;
            if (members[i].bandwidth > 0.0)
                xi = std::max(xi, timeOf(members[i], share, members.size()));
        }
        QVERIFY2(std::abs(sum - 1.0) <= 1e-12, qPrintable(QString::number(sum, 'g', 17)));
        QVERIFY2(close(xi, balance.xi, 1e-12),
                 qPrintable(QStringLiteral("%1 vs %2").arg(xi).arg(balance.xi)));
    }

    static void verifyCounts(const std::vector<double>& shares, std::int64_t total, const Counts& counts) {
        QCOMPARE(counts.size(), shares.size());
        QCOMPARE(std::accumulate(counts.begin(), counts.end(), std::int64_t{0}), total);
        for (std::size_t i = 0; i < counts.size(); ++i) {
            if (shares[i] == 0.0)
                QCOMPARE(counts[i], std::int64_t{0});
            QVERIFY2(std::abs(static_cast<double>(counts[i]) - shares[i] * static_cast<double>(total)) < 1.0,
                     qPrintable(QStringLiteral("member %1: %2 for quota %3")
                                    .arg(i)
                                    .arg(counts[i])
                                    .arg(shares[i] * static_cast<double>(total), 0, 'f', 3)));
        }
    }

    // Spans tile [0, V) in member order, parts tile each span, none longer than partElements.
    static void verifyPlan(const PartitionPlan& plan, const Counts& counts) {
        std::int64_t offset = 0;
        std::int64_t parts = 0;
        for (std::int64_t member = 0; member < plan.memberCount(); ++member) {
            const ElementRange span = plan.span(member);
            QCOMPARE(span, (ElementRange{offset, counts[static_cast<std::size_t>(member)]}));
            std::int64_t partOffset = span.offset;
            for (const ElementRange& part : plan.parts(member)) {
                QCOMPARE(part.offset, partOffset);
                QVERIFY(part.size >= 1 && part.size <= plan.partElements());
                partOffset = part.end();
            }
            QCOMPARE(partOffset, span.end());
            if (span.size == 0)
                QCOMPARE(plan.partCount(member), std::int64_t{0});
            parts += plan.partCount(member);
            offset = span.end();
        }
        QCOMPARE(offset, plan.totalElements());
        QCOMPARE(parts, plan.totalParts());
    }

private Q_SLOTS:
    void hivemindCaseHasTheUniqueOptimum() {
        // G = 4, so a share w costs (1 + 2w)/b. Members 0 and 2 have unknown bandwidth: share 0, no bound.
        // Water filling over members 1 (0.5) and 3 (0.6): (0.5λ - 1)/2 + (0.6λ - 1)/2 = 1 gives 1.1λ = 4,
        // λ = 40/11 ≈ 3.64, above both starts 1/0.5 = 2 and 1/0.6 ≈ 1.67, so both take a share:
        // w_1 = (20/11 - 1)/2 = 9/22, w_3 = (24/11 - 1)/2 = 13/22. ξ* = max(2, 1.67, 40/11) = 40/11 with both
        // members tight, so no other split is optimal. V = 2^20: quotas 428962.91 and 619613.09; floors sum
        // to 1048575 and the element left goes to the larger fractional part, member 1.
        const std::vector<MemberBandwidth> members{aggregator(0), aggregator(0.5), aggregator(0),
                                                   aggregator(0.6)};
        const LoadBalance balance = LoadBalancer::solve(members);
        compareShares(balance.shares, {0.0, 9.0 / 22, 0.0, 13.0 / 22});
        QCOMPARE(balance.xi, 40.0 / 11);
        QCOMPARE(balance.slowestAggregatorTime, 40.0 / 11);
        QCOMPARE(LoadBalancer::apportion(balance.shares, 1 << 20), (Counts{0, 428963, 0, 619613}));
        QCOMPARE(sahaj::test::optimalVertices(members).size(), std::size_t{1});
    }

    void slowPeerSetsXiAndTheTieBreakPicksTheWaterLevel() {
        // G = 3, so a share w costs (1 + w)/b. Breakpoints 1/b: 1.11 (0.9), 2 (0.5), 3.33 (0.3); caps 2/b:
        // 2.22, 4, 6.67. S(2) = 0.9·2 - 1 = 0.8 < 1, S(2.22) = 1 + 0.11 >= 1, so on [2, 2.22]:
        // (0.5λ - 1) + (0.9λ - 1) = 1 gives λ = 3/1.4 = 15/7, w = (0, 1/14, 13/14). Member 0's own traffic,
        // 1/0.3 = 10/3 > 15/7, sets ξ* = 10/3; any share for member 0 would exceed it, but members 1 and 2
        // may split in many ways (w_1 anywhere in [0, 2/3] keeps both <= 10/3). The tie-break takes the
        // split where the slowest aggregator is fastest: both finish at 15/7 ≈ 2.14 (w_1 = 0 would leave
        // member 2 at 2/0.9 ≈ 2.22). V = 1024: quotas 73.14 and 950.86, floors 73 + 950, +1 to member 2.
        const std::vector<MemberBandwidth> members{aggregator(0.3), aggregator(0.5), aggregator(0.9)};
        const LoadBalance balance = LoadBalancer::solve(members);
        compareShares(balance.shares, {0.0, 1.0 / 14, 13.0 / 14});
        QCOMPARE(balance.shares[0], 0.0);
        QCOMPARE(balance.xi, 10.0 / 3);
        QCOMPARE(balance.slowestAggregatorTime, 15.0 / 7);
        QCOMPARE(LoadBalancer::apportion(balance.shares, 1024), (Counts{0, 73, 951}));
        // The optimum is not unique here: the LP has several optimal vertices.
        QVERIFY(sahaj::test::optimalVertices(members).size() > 1);
    }

    void equalBandwidthsShareEqually() {
        // G = 4, b = 2: 4·(2λ - 1)/2 = 1 gives λ = 3/4 and shares 1/4; ξ = (1 + 2/4)/2 = 3/4.
        // V = 1023: quotas 255.75, floors 1020, the 3 left go to the lowest indices on the tie.
        const LoadBalance four = LoadBalancer::solve(std::vector<MemberBandwidth>(4, aggregator(2)));
        compareShares(four.shares, {0.25, 0.25, 0.25, 0.25});
        QCOMPARE(four.xi, 0.75);
        QCOMPARE(LoadBalancer::apportion(four.shares, 1023), (Counts{256, 256, 256, 255}));
        // G = 7, V = 1000: quotas 142.857, floors 994, +1 to members 0..5.
        const LoadBalance seven = LoadBalancer::solve(std::vector<MemberBandwidth>(7, aggregator(5)));
        compareShares(seven.shares, std::vector<double>(7, 1.0 / 7));
        QCOMPARE(LoadBalancer::apportion(seven.shares, 1000), (Counts{143, 143, 143, 143, 143, 143, 142}));
    }

    void oneFastPeerBecomesAParameterServer() {
        // G = 5, so a share w costs (1 + 3w)/b. Member 0 alone: (10λ - 1)/3 = 1 at λ = 0.4, before the slow
        // members start at λ = 1: it takes everything, time (1 + 3)/10 = 0.4; the slow members' own traffic
        // (1/1) sets ξ = 1.
        const LoadBalance server =
            LoadBalancer::solve({aggregator(10), aggregator(1), aggregator(1), aggregator(1), aggregator(1)});
        compareShares(server.shares, {1, 0, 0, 0, 0});
        QCOMPARE(server.xi, 1.0);
        QCOMPARE(server.slowestAggregatorTime, 0.4);
        // Member 0 three times faster: at λ = 1 it holds only (3 - 1)/3 = 2/3, so the slow ones join:
        // (3λ - 1)/3 + 4(λ - 1)/3 = 1 gives λ = 8/7, w_0 = (24/7 - 1)/3 = 17/21, the others 1/21 each.
        const LoadBalance mixed =
            LoadBalancer::solve({aggregator(3), aggregator(1), aggregator(1), aggregator(1), aggregator(1)});
        compareShares(mixed.shares, {17.0 / 21, 1.0 / 21, 1.0 / 21, 1.0 / 21, 1.0 / 21});
        QCOMPARE(mixed.xi, 8.0 / 7);
    }

    void clientsGetNothingButBoundTheRound() {
        // G = 3: the aggregators fill (λ - 1) each, 2(λ - 1) = 1 at λ = 1.5. The slow client moves V at 0.1:
        // ξ = 10; a fast client leaves ξ at the aggregators' 1.5.
        const LoadBalance slowClient = LoadBalancer::solve({aggregator(1), aggregator(1), client(0.1)});
        compareShares(slowClient.shares, {0.5, 0.5, 0});
        QCOMPARE(slowClient.xi, 10.0);
        QCOMPARE(slowClient.slowestAggregatorTime, 1.5);
        const LoadBalance fastClient = LoadBalancer::solve({aggregator(1), aggregator(1), client(100)});
        QCOMPARE(fastClient.xi, 1.5);
        // One aggregator among fast clients takes everything: (1 + 1)/1 = 2.
        const LoadBalance lone = LoadBalancer::solve({aggregator(1), client(100), client(100)});
        compareShares(lone.shares, {1, 0, 0});
        QCOMPARE(lone.xi, 2.0);
    }

    void twoMembersSplitByBandwidth() {
        // G = 2: each moves V whatever the split, so ξ = max 1/b = 1; the split follows bandwidth 1 : 3.
        const LoadBalance both = LoadBalancer::solve({aggregator(1), aggregator(3)});
        compareShares(both.shares, {0.25, 0.75});
        QCOMPARE(both.xi, 1.0);
        QCOMPARE(both.slowestAggregatorTime, 1.0);
        compareShares(LoadBalancer::solve({client(1), aggregator(3)}).shares, {0, 1});
        const LoadBalance unknown = LoadBalancer::solve({aggregator(0), aggregator(3)});
        compareShares(unknown.shares, {0, 1});
        QCOMPARE(unknown.xi, 1.0 / 3);
    }

    void aSingleMemberKeepsEverything() {
        // G = 1: (1 - w)/b with w = 1 is 0: nothing moves.
        const LoadBalance known = LoadBalancer::solve({aggregator(2)});
        compareShares(known.shares, {1});
        QCOMPARE(known.xi, 0.0);
        QCOMPARE(known.slowestAggregatorTime, 0.0);
        compareShares(LoadBalancer::solve({aggregator(0)}).shares, {1});
        QCOMPARE(LoadBalancer::apportion({1.0}, 12345), (Counts{12345}));
    }

    void aggregatorsOfUnknownBandwidthShareEquallyWhenNoneIsKnown() {
        // No aggregator has a known bandwidth: no split satisfies the constraints, so (as hivemind does for
        // peers of unknown bandwidth) they share equally; the client's own traffic 1/0.5 still bounds ξ.
        const LoadBalance balance =
            LoadBalancer::solve({aggregator(0), aggregator(0), client(0.5), client(0)});
        compareShares(balance.shares, {0.5, 0.5, 0, 0});
        QCOMPARE(balance.xi, 2.0);
        QCOMPARE(balance.slowestAggregatorTime, 0.0);
    }

    void groupsWithoutAggregatorsAreRejected() {
        const QString expected = QStringLiteral("a group needs at least one member that accepts connections");
        QCOMPARE(errorOf({client(1), client(2)}), expected);
        QCOMPARE(errorOf({client(0)}), expected);
        QCOMPARE(errorOf({}), expected);
    }

    void badBandwidthsAreRejected() {
        const double nan = std::numeric_limits<double>::quiet_NaN();
        const double inf = std::numeric_limits<double>::infinity();
        for (const double bad : {-1.0, nan, inf, -inf}) {
            const QString message = errorOf({aggregator(1), client(bad)});
            QVERIFY2(message.contains("member 1 has bandwidth") && message.contains("finite number >= 0"),
                     qPrintable(message));
        }
        const QString tiny = errorOf({aggregator(1e-310), aggregator(1)});
        QVERIFY2(tiny.contains("member 0") && tiny.contains("too small"), qPrintable(tiny));
    }

    void apportionIsLargestRemainder() {
        // Scores need not sum to 1: (1, 1, 2) of 10 gives quotas 2.5, 2.5, 5; the element left goes to the
        // lower index of the tie.
        QCOMPARE(LoadBalancer::apportion({1, 1, 2}, 10), (Counts{3, 2, 5}));
        // Quotas 0.67 each for members 1..3: the 2 elements go to members 1 and 2, member 0 keeps 0.
        QCOMPARE(LoadBalancer::apportion({0, 1, 1, 1}, 2), (Counts{0, 1, 1, 0}));
        // Quotas 0.1, 0.6, 0.3 of 1: the single element goes to the largest fractional part.
        QCOMPARE(LoadBalancer::apportion({0.1, 0.6, 0.3}, 1), (Counts{0, 1, 0}));
        QCOMPARE(LoadBalancer::apportion({0, 0}, 0), (Counts{0, 0}));
        QCOMPARE(LoadBalancer::apportion({0.5, 0.5}, std::int64_t{1} << 53),
                 (Counts{std::int64_t{1} << 52, std::int64_t{1} << 52}));
    }

    void apportionRejectsBadInput() {
        const auto errorOf = [](const std::vector<double>& shares, std::int64_t total) {
            return sahaj::test::errorOf([&] { LoadBalancer::apportion(shares, total); });
        };
        QVERIFY(errorOf({1}, -1).contains("outside [0, 2^53]"));
        QVERIFY(errorOf({1}, (std::int64_t{1} << 53) + 1).contains("outside [0, 2^53]"));
        QVERIFY(errorOf({1, -0.5}, 10).contains("share 1"));
        QVERIFY(errorOf({std::numeric_limits<double>::quiet_NaN()}, 10).contains("share 0"));
        QVERIFY(errorOf({0, 0}, 10).contains("no member has a positive share"));
        QVERIFY(errorOf({1e308, 1e308}, 10).contains("overflow"));
    }

    void randomGroupsMatchAnExactLpSolver() {
        // Each case: G in 1..8, members aggregating with probability 0.7, bandwidth 0 (unknown) with
        // probability 0.15, else log-uniform over four decades. The solver's ξ must equal the optimum found
        // by enumerating the LP's vertices, and for G > 2 its slowest aggregator must be no slower than that
        // of any optimal vertex (the tie-break).
        std::mt19937_64 random(20240611);
        std::uniform_int_distribution<std::size_t> groupSize(1, 8);
        std::uniform_real_distribution<double> unit(0.0, 1.0);
        std::uniform_int_distribution<std::int64_t> length(0, std::int64_t{1} << 30);
        std::uniform_int_distribution<std::int64_t> partElements(1, 1 << 20);
        int compared = 0;
        int rejected = 0;
        int unknownOnly = 0;
        for (int round = 0; round < 400; ++round) {
            std::vector<MemberBandwidth> members(groupSize(random));
            for (MemberBandwidth& member : members) {
                member.canAggregate = unit(random) < 0.7;
                member.bandwidth = unit(random) < 0.15 ? 0.0 : 0.01 * std::pow(10.0, 4.0 * unit(random));
            }
            const bool anyAggregator =
                std::any_of(members.begin(), members.end(), [](const auto& m) { return m.canAggregate; });
            if (!anyAggregator) {
                QVERIFY(errorOf(members).contains("at least one member that accepts connections"));
                ++rejected;
                continue;
            }
            const LoadBalance balance = LoadBalancer::solve(members);
            verifySplit(members, balance);
            const auto optimal = sahaj::test::optimalVertices(members);
            if (optimal.empty()) {
                ++unknownOnly; // no aggregator with a known bandwidth: equal shares among aggregators
                for (std::size_t i = 0; i < members.size(); ++i)
                    QCOMPARE(balance.shares[i] > 0.0, members[i].canAggregate);
            } else {
                ++compared;
                QVERIFY2(close(balance.xi, optimal.front().xi, 1e-9),
                         qPrintable(QStringLiteral("case %1: xi %2, LP %3")
                                        .arg(round)
                                        .arg(balance.xi, 0, 'g', 17)
                                        .arg(optimal.front().xi, 0, 'g', 17)));
                // For G = 2 every member's time is 1/b whatever the split; the split follows bandwidth
                // instead of the tie-break (see LoadBalancer.h).
                for (const auto& vertex : optimal) {
                    QVERIFY(members.size() <= 2 ||
                            balance.slowestAggregatorTime <=
                                slowestAggregatorTime(members, vertex.shares) * (1 + 1e-9));
                }
            }
            const std::int64_t total = length(random);
            const Counts counts = LoadBalancer::apportion(balance.shares, total);
            verifyCounts(balance.shares, total, counts);
            verifyPlan(PartitionPlan(counts, total, partElements(random)), counts);
        }
        // The mix must exercise every path (this seed gives 371 LP comparisons, 17 groups without aggregators
        // and 12 without a known aggregator bandwidth).
        QVERIFY2(compared > 300 && rejected > 0 && unknownOnly > 0,
                 qPrintable(QStringLiteral("%1 %2 %3").arg(compared).arg(rejected).arg(unknownOnly)));
    }

    void partitionPlanCutsSpansIntoParts() {
        // The default part: 128 KiB of fp16.
        QCOMPARE(PartitionPlan({4, 6}, 10).partElements(), std::int64_t{65536});
        // V = 2^20 over members 1 and 3, parts of 262144 (512 KiB of fp16): member 1's 600000 values make
        // parts of 262144, 262144 and 75712; member 3's 448576 (from 600000) make 262144 and 186432.
        const Counts counts{0, 600000, 0, 448576};
        const PartitionPlan plan(counts, 1 << 20, 262144);
        QCOMPARE(plan.partElements(), std::int64_t{262144});
        QCOMPARE(plan.memberCount(), std::int64_t{4});
        QCOMPARE(plan.span(0), (ElementRange{0, 0}));
        QCOMPARE(plan.span(2), (ElementRange{600000, 0}));
        QCOMPARE(plan.parts(1), (std::vector<ElementRange>{{0, 262144}, {262144, 262144}, {524288, 75712}}));
        QCOMPARE(plan.parts(3), (std::vector<ElementRange>{{600000, 262144}, {862144, 186432}}));
        QCOMPARE(plan.part(3, 1), (ElementRange{862144, 186432}));
        QVERIFY(plan.parts(0).empty() && plan.parts(2).empty());
        QCOMPARE(plan.totalParts(), std::int64_t{5});
        verifyPlan(plan, counts);
        // Exactly divisible spans end on a full part.
        QCOMPARE(PartitionPlan({4, 6}, 10, 2).parts(1), (std::vector<ElementRange>{{4, 2}, {6, 2}, {8, 2}}));
        QCOMPARE(PartitionPlan({}, 0).totalParts(), std::int64_t{0});
    }

    void partitionPlanRejectsBadCounts() {
        const auto errorOf = [](const Counts& counts, std::int64_t total, std::int64_t part) {
            return sahaj::test::errorOf([&] { PartitionPlan(counts, total, part); });
        };
        QVERIFY(errorOf({5, 4}, 10, 4).contains("sum to 9, not to the vector length 10"));
        QVERIFY(errorOf({5, 6}, 10, 4).contains("member 1 has 6 elements"));
        QVERIFY(errorOf({-1, 11}, 10, 4).contains("member 0 has -1 elements"));
        QVERIFY(errorOf({std::numeric_limits<std::int64_t>::max(), 1}, 10, 4).contains("member 0"));
        QVERIFY(errorOf({10}, 10, 0).contains("at least 1 element"));
        QVERIFY(errorOf({}, -1, 4).contains("negative"));
        const PartitionPlan plan({3, 0}, 3, 2);
        QVERIFY_THROWS_EXCEPTION(std::out_of_range, plan.span(2));
        QVERIFY_THROWS_EXCEPTION(std::out_of_range, plan.span(-1));
        QVERIFY_THROWS_EXCEPTION(std::out_of_range, plan.part(0, 2));
        QVERIFY_THROWS_EXCEPTION(std::out_of_range, plan.part(1, 0));
    }
};

QTEST_GUILESS_MAIN(TestLoadBalancer)
#include "tst_load_balancer.moc"
