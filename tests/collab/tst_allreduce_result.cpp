// AllReduceResult: which violators' span means a member took, the test of whether a state round is taken.
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
    void aViolatorsSpanTakenBeforeTheOffenceIsNamed() {
        AllReduceResult result;
        result.spanAveraged = {true, true, true}; // x's mean came before its part showed the offence
        result.violators = {{std::string(32, 'x'), "a part with a weight of 1e12"},
                            {std::string(32, 'x'), "another part"}};
        QVERIFY(result.complete());
        QCOMPARE(result.spansTakenFromViolators(group()), std::vector<std::string>{std::string(32, 'x')});
    }

    void aViolatorsSpanThatFailedOrAnOutsiderIsNot() {
        AllReduceResult result;
        result.spanAveraged = {true, true, false}; // the offence came first: x's mean was refused
        result.violators = {{std::string(32, 'x'), "a part with a weight of 1e12"},
                            {std::string(32, 'z'), "not a member at all"}};
        QVERIFY(!result.complete());
        QVERIFY(result.spansTakenFromViolators(group()).empty());
        result.violators.clear();
        result.spanAveraged = {true, true, true};
        QVERIFY(result.spansTakenFromViolators(group()).empty());
    }
};

QTEST_GUILESS_MAIN(TestAllReduceResult)
#include "tst_allreduce_result.moc"
