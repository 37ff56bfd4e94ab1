#include "core/collab/MemberCredentials.h"

#include "core/security/AccessToken.h"

#include <QDateTime>

#include <stdexcept>

namespace sahaj::collab {

std::string MemberCredentials::curveKeyOf(const std::string& peerId, const std::string& token,
                                          const dht::RecordAdmission& admission, qint64 nowSeconds) {
    try {
        const security::AccessToken parsed =
            security::AccessToken::fromBytes(QByteArray::fromStdString(token));
        if (parsed.peer().bytes().toStdString() != peerId ||
            !parsed.check(admission.organiser, admission.runId, nowSeconds).isEmpty())
            return {};
        return parsed.curvePublicKey().toStdString();
    } catch (const std::invalid_argument&) {
        return {}; // not a token at all
    }
}

bool MemberCredentials::bind(std::vector<GroupMember>& members,
                             const std::optional<dht::RecordAdmission>& admission) {
    if (!admission)
        return true;
    const qint64 now = QDateTime::currentSecsSinceEpoch();
    for (GroupMember& member : members) {
        member.curveKey = curveKeyOf(member.peerId, member.token, *admission, now);
        if (member.curveKey.empty())
            return false;
    }
    return true;
}

} // namespace sahaj::collab
