#pragma once

#include "core/collab/GroupSpec.h"
#include "core/dht/RecordAdmission.h"

#include <QtGlobal>

#include <optional>
#include <string>
#include <vector>

namespace sahaj::collab {

// Turns the access tokens members carry in join requests and GroupBegin into the CURVE keys to expect at
// their endpoints. Each member checks every token itself (organiser's signature, run, expiry, bound to
// that member's peer id), so a leader cannot point the group at a key of its choosing.
class MemberCredentials {
public:
    // The CURVE key `token` binds to `peerId`, when it is a valid access token of the run at `nowSeconds`;
    // empty otherwise.
    static std::string curveKeyOf(const std::string& peerId, const std::string& token,
                                  const dht::RecordAdmission& admission, qint64 nowSeconds);
    // Fills each member's curveKey from its token. False when a member's token does not verify. Without an
    // admission (a run that admits anyone) nothing is checked and keys stay empty.
    static bool bind(std::vector<GroupMember>& members, const std::optional<dht::RecordAdmission>& admission);
};

} // namespace sahaj::collab
