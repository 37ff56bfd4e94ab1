// MemberCredentials: the CURVE key a member's access token binds, only when the token is the organiser's,
// for this run, valid now, names the member, and its role grants the one the member takes in the group.
#include "core/collab/MemberCredentials.h"
#include "core/security/AccessToken.h"
#include "core/security/PeerIdentity.h"

#include <QDateTime>
#include <QTest>

using namespace sahaj;
using security::AccessToken;

class TestMemberCredentials : public QObject {
    Q_OBJECT

    security::PeerIdentity organiser_ = security::PeerIdentity::generate();
    security::PeerIdentity volunteer_ = security::PeerIdentity::generate();
    QByteArray curveKey_ = QByteArray(32, '\x5a');
    // Now: bind() checks tokens at the current time.
    const qint64 kNow = QDateTime::currentSecsSinceEpoch();

    std::string tokenFor(AccessToken::Role role, const security::PeerIdentity& signer) const {
        return AccessToken::issue("run-1", "volunteer", volunteer_.id(), curveKey_, role, kNow - 60,
                                  kNow + 3600, signer)
            .toBytes()
            .toStdString();
    }
    std::string keyOf(AccessToken::Role tokenRole, wire::Role role,
                      const security::PeerIdentity* signer = nullptr) const {
        const dht::RecordAdmission admission{organiser_.id(), "run-1"};
        return collab::MemberCredentials::curveKeyOf(volunteer_.id().bytes().toStdString(), role,
                                                     tokenFor(tokenRole, signer ? *signer : organiser_),
                                                     admission, kNow);
    }

private Q_SLOTS:
    // Admitted is not trusted (docs/security.md): a client's token does not make a node (an aggregator
    // with a span of everyone's gradients), nor an auxiliary's a sender; before, any valid token bound its
    // key whatever role the member took.
    void aTokenGrantsOnlyItsRole() {
        const std::string key = curveKey_.toStdString();
        QCOMPARE(keyOf(AccessToken::Role::Node, wire::ROLE_NODE), key);
        QCOMPARE(keyOf(AccessToken::Role::Node, wire::ROLE_CLIENT), key);
        QCOMPARE(keyOf(AccessToken::Role::Node, wire::ROLE_AUXILIARY), std::string());
        QCOMPARE(keyOf(AccessToken::Role::Client, wire::ROLE_CLIENT), key);
        QCOMPARE(keyOf(AccessToken::Role::Client, wire::ROLE_NODE), std::string());
        QCOMPARE(keyOf(AccessToken::Role::Client, wire::ROLE_AUXILIARY), std::string());
        QCOMPARE(keyOf(AccessToken::Role::Aux, wire::ROLE_AUXILIARY), key);
        QCOMPARE(keyOf(AccessToken::Role::Aux, wire::ROLE_NODE), std::string());
        QCOMPARE(keyOf(AccessToken::Role::Coordinator, wire::ROLE_NODE), key);
        QCOMPARE(keyOf(AccessToken::Role::Node, wire::ROLE_UNSPECIFIED), std::string());
    }

    void aTokenOfAnotherSignerOrPeerBindsNothing() {
        const security::PeerIdentity stranger = security::PeerIdentity::generate();
        QCOMPARE(keyOf(AccessToken::Role::Node, wire::ROLE_NODE, &stranger), std::string());
        const dht::RecordAdmission admission{organiser_.id(), "run-1"};
        QCOMPARE(collab::MemberCredentials::curveKeyOf(std::string(32, 'x'), wire::ROLE_NODE,
                                                       tokenFor(AccessToken::Role::Node, organiser_),
                                                       admission, kNow),
                 std::string());
        QCOMPARE(collab::MemberCredentials::curveKeyOf(volunteer_.id().bytes().toStdString(), wire::ROLE_NODE,
                                                       "not a token", admission, kNow),
                 std::string());
        // A group whose client member carries a client's token binds; one that makes it a node does not.
        std::vector<collab::GroupMember> members(1);
        members[0].peerId = volunteer_.id().bytes().toStdString();
        members[0].role = wire::ROLE_CLIENT;
        members[0].token = tokenFor(AccessToken::Role::Client, organiser_);
        QVERIFY(collab::MemberCredentials::bind(members, admission));
        members[0].role = wire::ROLE_NODE;
        QVERIFY(!collab::MemberCredentials::bind(members, admission));
    }
};

QTEST_GUILESS_MAIN(TestMemberCredentials)
#include "tst_member_credentials.moc"
