#include "core/collab/MemberCredentials.h"

#include "core/security/AccessToken.h"

#include <QDateTime>

#include <stdexcept>

namespace sahaj::collab {

bool MemberCredentials::grants(security::AccessToken::Role tokenRole, wire::Role role) {
    using Token = security::AccessToken::Role;
    switch (tokenRole) {
    case Token::Coordinator:
        return role == wire::ROLE_NODE || role == wire::ROLE_CLIENT || role == wire::ROLE_AUXILIARY;
    case Token::Node:
        return role == wire::ROLE_NODE || role == wire::ROLE_CLIENT;
    case Token::Client:
        return role == wire::ROLE_CLIENT;
    case Token::Aux:
        return role == wire::ROLE_AUXILIARY;
    }
    return false;
}

std::string MemberCredentials::curveKeyOf(const std::string& peerId, wire::Role role,
                                          const std::string& token, const dht::RecordAdmission& admission,
                                          qint64 nowSeconds) {
    try {
        const security::AccessToken parsed =
            security::AccessToken::fromBytes(QByteArray::fromStdString(token));
        if (parsed.peer().bytes().toStdString() != peerId || !grants(parsed.role(), role) ||
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
        member.curveKey = curveKeyOf(member.peerId, member.role, member.token, *admission, now);
        if (member.curveKey.empty())
            return false;
    }
    return true;
}

} // namespace sahaj::collab
