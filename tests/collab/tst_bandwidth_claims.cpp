// BandwidthClaims: a leader caps members' claimed bandwidths by what it saw them deliver.
#include "core/collab/BandwidthClaims.h"

#include <QTest>

using sahaj::collab::BandwidthClaims;
using sahaj::collab::GroupMember;

namespace {

std::vector<GroupMember> group(const std::vector<double>& bandwidths) {
    std::vector<GroupMember> members;
    for (std::size_t i = 0; i < bandwidths.size(); ++i) {
        GroupMember member;
        member.peerId = std::string(32, static_cast<char>('a' + i));
        member.bandwidth = bandwidths[i];
        members.push_back(member);
    }
    return members;
}

} // namespace

class TestBandwidthClaims : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void anObservedMemberIsCappedByItsBestRecentRate() {
        BandwidthClaims claims;
        const std::string liar(32, 'c');
        for (const double rate : {1e6, 2e6, 0.5e6})
            claims.observe(liar, rate);
        QCOMPARE(*claims.capOf(liar), 1.5 * 2e6);
        std::vector<GroupMember> members = group({1e6, 1e6, 6.25e8});
        claims.cap(members, std::string(32, 'a'));
        QCOMPARE(members[2].bandwidth, 3e6);
        QCOMPARE(members[0].bandwidth, 1e6); // the leader itself: taken as claimed
        QCOMPARE(members[1].bandwidth, 1e6); // never observed: capped by the lower median, 1e6
        // Only the last kRememberedRates observations count: an old fast round is forgotten.
        for (std::size_t i = 0; i < BandwidthClaims::kRememberedRates; ++i)
            claims.observe(liar, 1e5);
        QCOMPARE(*claims.capOf(liar), 1.5 * 1e5);
    }

    void anUnobservedNewcomerCannotOutclaimTheTypicalMember() {
        const BandwidthClaims claims;
        std::vector<GroupMember> members = group({4e6, 1e6, 2e6, 1e10, 0.0});
        claims.cap(members, std::string(32, 'a'));
        QCOMPARE(members[3].bandwidth, 2e6); // lower median of {1e6, 2e6, 4e6, 1e10}
        QCOMPARE(members[1].bandwidth, 1e6); // below the median: unchanged
        QCOMPARE(members[4].bandwidth, 0.0); // a client stays at 0
        QCOMPARE(members[0].bandwidth, 4e6); // the leader
    }

    void nonsenseRatesAreIgnoredAndMemoryIsBounded() {
        BandwidthClaims claims;
        claims.observe("p", -1.0);
        claims.observe("p", std::numeric_limits<double>::quiet_NaN());
        claims.observe("p", std::numeric_limits<double>::infinity());
        QVERIFY(!claims.capOf("p").has_value());
        for (std::size_t i = 0; i < BandwidthClaims::kMaxPeers + 10; ++i)
            claims.observe("peer-" + std::to_string(i), 1e6);
        QVERIFY(!claims.capOf("peer-0").has_value()); // the first ones seen were forgotten
        QVERIFY(claims.capOf("peer-" + std::to_string(BandwidthClaims::kMaxPeers + 9)).has_value());
    }
};

QTEST_GUILESS_MAIN(TestBandwidthClaims)
#include "tst_bandwidth_claims.moc"
