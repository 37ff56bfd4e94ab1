#pragma once

#include "core/security/AccessToken.h"
#include "core/security/CurveKeyPair.h"
#include "core/security/PeerIdentity.h"

#include <QByteArray>
#include <QDateTime>
#include <QString>

#include <memory>

namespace sahaj::test {

// A volunteer of a run, for tests of the token endpoint's services: its keys and a node token the
// organiser issued for them (for its own CURVE key, or with ownCurveKey false for another's: a token
// copied from someone else), valid for an hour.
struct AdmittedVolunteer {
    AdmittedVolunteer(const security::PeerIdentity& organiser, const QString& runId,
                      bool ownCurveKey = true) {
        const qint64 now = QDateTime::currentSecsSinceEpoch();
        const security::CurveKeyPair other = security::CurveKeyPair::generate();
        token = security::AccessToken::issue(runId, QStringLiteral("rahim"), identity->id(),
                                             ownCurveKey ? curve->publicKey() : other.publicKey(),
                                             security::AccessToken::Role::Node, now, now + 3600, organiser)
                    .toBytes();
    }
    std::shared_ptr<const security::PeerIdentity> identity =
        std::make_shared<const security::PeerIdentity>(security::PeerIdentity::generate());
    std::shared_ptr<const security::CurveKeyPair> curve =
        std::make_shared<const security::CurveKeyPair>(security::CurveKeyPair::generate());
    QByteArray token;
};

} // namespace sahaj::test
