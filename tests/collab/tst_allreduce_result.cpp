// AllReduceResult: which overweight senders' span means a member took, the test of whether a state round is
// taken; whether the group's plans differed.
#include "core/collab/AllReduceRound.h"

#include <QTest>

using namespace sahaj::collab;

class TestAllReduceResult : public QObject {
    Q_OBJECT

    // A group of three: a, b and the liar x, each aggregating a span.
    static GroupSpec group() {
        GroupSpec spec;
        for (char id : {'a', 'b', 'x'}) {
            GroupMember member;
            member.peerId = std::string(32, id);
            spec.members.push_back(member);
        }
        return spec;
    }

private Q_SLOTS:
    void anOverweightSpanTakenBeforeTheOffenceIsNamed() {
        AllReduceResult result;
        result.spanAveraged = {true, true, true}; // x's mean came before its part showed the offence
        result.overweightSenders = {std::string(32, 'x'), std::string(32, 'x')};
        QVERIFY(result.complete());
        QCOMPARE(result.overweightSpansTaken(group()), std::vector<std::string>{std::string(32, 'x')});
    }

    void aSpanThatFailedAnOutsiderOrAnotherOffenceIsNot() {
        AllReduceResult result;
        result.spanAveraged = {true, true, false}; // the offence came first: x's mean was refused
        result.overweightSenders = {std::string(32, 'x'), std::string(32, 'z')}; // z is no member
        QVERIFY(!result.complete());
        QVERIFY(result.overweightSpansTaken(group()).empty());
        // Another offence (negative moments in some spans) shows only where it lands: the offender's own
        // mean is left to the floors, which every member checks alike.
        result.overweightSenders.clear();
        result.violators = {{std::string(32, 'x'), "a part below the floor"}};
        result.spanAveraged = {true, true, true};
        QVERIFY(result.overweightSpansTaken(group()).empty());
    }

    // Plans differ when more members misfit this member's plan than fit it; silent ones count neither way.
    void plansDifferOnlyWhenMisfitsOutnumberFits() {
        AllReduceResult result;
        QVERIFY(!result.plansDiffer()); // nothing misfit
        result.planMismatches = {std::string(32, 'x')};
        QVERIFY(result.plansDiffer()); // the leader's parts misfit, the other member was silent
        result.planFits = 1;
        QVERIFY(!result.plansDiffer()); // one liar feigning a misfit against one honest member that fits
        result.planMismatches = {std::string(32, 'x'), std::string(32, 'b')};
        QVERIFY(result.plansDiffer()); // every other member of a split group misfits
    }
};

QTEST_GUILESS_MAIN(TestAllReduceResult)
#include "tst_allreduce_result.moc"
