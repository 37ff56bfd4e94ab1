// The coordinator's revocation record: only the coordinator's counts, and only a well-formed list.
#include "core/collab/RevocationBoard.h"
#include "core/dht/DhtRecord.h"
#include "core/net/protocol.pb.h"
#include "core/security/AccessToken.h"
#include "core/security/PeerIdentity.h"
#include "core/security/RevocationFile.h"

#include <QTest>

using namespace sahaj;
using security::AccessToken;
using security::PeerId;
using security::PeerIdentity;

class TestRevocationBoard : public QObject {
    Q_OBJECT

    const PeerIdentity organiser_ = PeerIdentity::generate();
    const PeerIdentity coordinator_ = PeerIdentity::generate();

    dht::DhtRecord recordOf(const QByteArray& payload, AccessToken::Role role) const {
        dht::DhtRecord record;
        record.owner = coordinator_.id();
        record.payload = payload;
        record.token = AccessToken::issue("run", "coordinator", coordinator_.id(), QByteArray(32, '\x03'),
                                          role, 0, 3600, organiser_);
        return record;
    }

    static QByteArray payloadOf(const std::vector<std::string>& ids) {
        wire::RevocationRecord record;
        for (const std::string& id : ids)
            record.add_peer_ids(id);
        return QByteArray::fromStdString(record.SerializeAsString());
    }

private Q_SLOTS:
    void theCoordinatorsListIsRead() {
        const std::set<PeerId> listed{PeerIdentity::generate().id(), PeerIdentity::generate().id()};
        std::set<PeerId> read;
        QVERIFY(collab::RevocationBoard::decode(
            recordOf(collab::RevocationBoard::encode(listed), AccessToken::Role::Coordinator), read));
        QCOMPARE(read, listed);
    }

    // A volunteer cannot revoke anyone, nor clear the list with an empty one of its own.
    void nobodyElsesListCounts() {
        const QByteArray payload = collab::RevocationBoard::encode({PeerIdentity::generate().id()});
        std::set<PeerId> read;
        QVERIFY(!collab::RevocationBoard::decode(recordOf(payload, AccessToken::Role::Node), read));
        QVERIFY(!collab::RevocationBoard::decode(recordOf({}, AccessToken::Role::Client), read));
        dht::DhtRecord untokened = recordOf(payload, AccessToken::Role::Coordinator);
        untokened.token.reset();
        QVERIFY(!collab::RevocationBoard::decode(untokened, read));
        QVERIFY(read.empty());
    }

    void malformedListsAreRefused() {
        const std::string id = PeerIdentity::generate().id().bytes().toStdString();
        std::vector<std::string> tooMany;
        for (int i = 0; i <= security::RevocationFile::kMaxPeers; ++i)
            tooMany.push_back(PeerIdentity::generate().id().bytes().toStdString());
        for (const QByteArray& payload : {payloadOf({id.substr(1)}), payloadOf({id, id}), payloadOf(tooMany),
                                          QByteArray("\xff\xff\xff not a message")}) {
            std::set<PeerId> read;
            QVERIFY(
                !collab::RevocationBoard::decode(recordOf(payload, AccessToken::Role::Coordinator), read));
        }
    }
};

QTEST_GUILESS_MAIN(TestRevocationBoard)
#include "tst_revocation_board.moc"
