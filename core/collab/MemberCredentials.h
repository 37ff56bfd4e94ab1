#pragma once

#include "core/collab/GroupSpec.h"
#include "core/dht/RecordAdmission.h"
#include "core/net/protocol.pb.h"
#include "core/security/AccessToken.h"

#include <QtGlobal>

#include <optional>
#include <string>
#include <vector>

namespace sahaj::collab {

// Turns the access tokens members carry in join requests and GroupBegin into the CURVE keys to expect at
// their endpoints. Each member checks every token itself (organiser's signature, run, expiry, bound to
// that member's peer id, and a role that grants the one it takes in the group), so a leader cannot point
// the group at a key of its choosing, and a client's token does not make an aggregator.
class MemberCredentials {
public:
    // The CURVE key `token` binds to `peerId`, when it is a valid access token of the run at `nowSeconds`
    // whose role grants `role`; empty otherwise.
    static std::string curveKeyOf(const std::string& peerId, wire::Role role, const std::string& token,
                                  const dht::RecordAdmission& admission, qint64 nowSeconds);
    // Whether a token's role lets its peer take `role` in a group: a node's may also be a client (it
    // only sends), a client's only a client, an auxiliary's only an auxiliary; the coordinator's any.
    static bool grants(security::AccessToken::Role tokenRole, wire::Role role);
    // Fills each member's curveKey from its token. False when a member's token does not verify. Without an
    // admission (a run that admits anyone) nothing is checked and keys stay empty.
    static bool bind(std::vector<GroupMember>& members, const std::optional<dht::RecordAdmission>& admission);
};

} // namespace sahaj::collab
