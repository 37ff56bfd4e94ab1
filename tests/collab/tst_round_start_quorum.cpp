// RoundStartQuorum: a member whose own reading says the batch is not full yet begins its group's round once
// more than half of the group's other members have begun it; one member's word, or a non-member's, is not
// enough (docs/collaboration.md, "When a round begins").
#include "core/collab/GroupSpec.h"
#include "core/collab/RoundStartQuorum.h"

#include <QTest>

#include <set>
#include <string>

using namespace sahaj;
using collab::RoundStartQuorum;

namespace {

std::string id(char tag) {
    return std::string(32, tag);
}

// A group of the members tagged `tags` (the first is this peer).
collab::GroupSpec groupOf(const std::string& tags) {
    collab::GroupSpec group;
    for (const char tag : tags)
        group.members.push_back({id(tag), wire::ROLE_NODE, "tcp://127.0.0.1:5000", 1e6, 1});
    return group;
}

std::set<std::string> ids(const std::string& tags) {
    std::set<std::string> result;
    for (const char tag : tags)
        result.insert(id(tag));
    return result;
}

} // namespace

class TestRoundStartQuorum : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void mostOfTheOthersAreNeeded() {
        const collab::GroupSpec five = groupOf("sabcd"); // this peer s and four others
        QVERIFY(!RoundStartQuorum::reached(five, id('s'), {}));
        QVERIFY(!RoundStartQuorum::reached(five, id('s'), ids("a")));  // one member's word: a liar's, maybe
        QVERIFY(!RoundStartQuorum::reached(five, id('s'), ids("ab"))); // half is not most
        QVERIFY(RoundStartQuorum::reached(five, id('s'), ids("abc")));
        QCOMPARE(RoundStartQuorum::begunOthers(five, id('s'), ids("abc")), std::size_t{3});
    }

    // Peers outside the group, and this peer itself, do not count: a flood of made-up identities claiming
    // to have begun moves nothing.
    void onlyTheGroupsOtherMembersCount() {
        const collab::GroupSpec five = groupOf("sabcd");
        QVERIFY(!RoundStartQuorum::reached(five, id('s'), ids("sxyzwvu")));
        QCOMPARE(RoundStartQuorum::begunOthers(five, id('s'), ids("saxyz")), std::size_t{1});
        QVERIFY(!RoundStartQuorum::reached(five, id('s'), ids("sab")));
    }

    // In a pair the other member is the group's whole rest; in a group of three, one of the two others is
    // not enough.
    void smallGroups() {
        QVERIFY(RoundStartQuorum::reached(groupOf("sa"), id('s'), ids("a")));
        QVERIFY(!RoundStartQuorum::reached(groupOf("sab"), id('s'), ids("a")));
        QVERIFY(RoundStartQuorum::reached(groupOf("sab"), id('s'), ids("ab")));
        QVERIFY(!RoundStartQuorum::reached(groupOf("s"), id('s'), ids("s")));
    }
};

QTEST_GUILESS_MAIN(TestRoundStartQuorum)
#include "tst_round_start_quorum.moc"
