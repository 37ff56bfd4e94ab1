// The hostile volunteer's lies, as `sahaj-node volunteer --attack` combines them (AttackPlan): several
// roles at once, at most one lie about what it sends, and every option each lie needs.
#include "core/engine/AttackPlan.h"
#include "core/engine/PeerOptions.h"

#include <QTest>

#include <stdexcept>

using namespace sahaj::engine;
using Kind = GradientAttack::Kind;

class TestAttackPlan : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void aLiarInEveryRoleSetsEveryOption() {
        PeerOptions options;
        AttackPlan::parse("negate, equivocate,split-plans,fake-state,future-epoch").applyTo(options);
        QCOMPARE(options.attack, Kind::Negate);
        QVERIFY(options.fakeState);
        QVERIFY(options.link.equivocate);
        QVERIFY(options.link.matchmaking.splitPlans);
        QCOMPARE(options.link.publishedEpochLead, GradientAttack::kFutureEpochLead);
        QCOMPARE(options.link.claimedSamples, std::uint64_t{0});
    }

    void oneLieSetsOnlyItsOwnOptions() {
        PeerOptions options;
        AttackPlan::parse("inflated-samples").applyTo(options);
        QCOMPARE(options.attack, Kind::InflatedSamples);
        QCOMPARE(options.link.claimedSamples, GradientAttack::kInflatedSamples);
        QVERIFY(!options.fakeState);
        QVERIFY(!options.link.equivocate);
        QVERIFY(!options.link.matchmaking.splitPlans);
        QCOMPARE(options.link.publishedEpochLead, std::uint64_t{0});

        PeerOptions honest;
        AttackPlan::parse("none").applyTo(honest);
        QCOMPARE(honest.attack, Kind::None);
        QVERIFY(!honest.fakeState && !honest.link.equivocate && !honest.link.matchmaking.splitPlans);
    }

    void twoLiesAboutWhatItSendsAreRefused() {
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, AttackPlan::parse("negate,random"));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, AttackPlan::parse("heavy-state,always-ready"));
        QCOMPARE(AttackPlan::parse("negate,negate").sent(), Kind::Negate); // the same lie twice is one
    }

    void anUnknownKindIsNamed() {
        try {
            AttackPlan::parse("negate,lie-about-everything");
            QFAIL("an unknown kind was taken");
        } catch (const std::invalid_argument& e) {
            QVERIFY(QString(e.what()).contains("'lie-about-everything'"));
            QVERIFY(QString(e.what()).contains("split-plans"));
        }
    }
};

QTEST_GUILESS_MAIN(TestAttackPlan)
#include "tst_attack_plan.moc"
