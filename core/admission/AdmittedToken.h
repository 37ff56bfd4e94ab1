#pragma once

#include "core/security/PeerId.h"

#include <QString>

#include <string>

namespace sahaj::admission {

// Whether a request at the token endpoint comes from an admitted peer (the data mirror and the
// reachability dial serve no one else): the token it carries is the organiser's, for this run, valid now,
// and names both the request's sender and the CURVE key of the connection it came on — a token copied
// from another peer is worth nothing without that peer's keys.
class AdmittedToken {
public:
    // Why `token` (its wire form) does not admit `sender` (raw peer id bytes) on a connection whose ZAP
    // user id is `connectionUser` (the hex of its CURVE key); empty when it does. Never throws.
    static QString problem(const std::string& token, const std::string& sender,
                           const std::string& connectionUser, const security::PeerId& organiser,
                           const QString& runId, qint64 nowSeconds);
};

} // namespace sahaj::admission
