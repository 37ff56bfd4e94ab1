#pragma once

#include "core/net/protocol.pb.h"
#include "core/security/AccessToken.h"

#include <optional>

namespace sahaj::admission {

// The roles a volunteer may ask for, between their wire spelling and the token's. The coordinator role
// is never asked for over the wire, so it has no mapping here.
inline std::optional<security::AccessToken::Role> tokenRoleOf(wire::Role role) {
    switch (role) {
    case wire::ROLE_NODE:
        return security::AccessToken::Role::Node;
    case wire::ROLE_CLIENT:
        return security::AccessToken::Role::Client;
    case wire::ROLE_AUXILIARY:
        return security::AccessToken::Role::Aux;
    default:
        return std::nullopt;
    }
}

inline std::optional<wire::Role> wireRoleOf(security::AccessToken::Role role) {
    switch (role) {
    case security::AccessToken::Role::Node:
        return wire::ROLE_NODE;
    case security::AccessToken::Role::Client:
        return wire::ROLE_CLIENT;
    case security::AccessToken::Role::Aux:
        return wire::ROLE_AUXILIARY;
    case security::AccessToken::Role::Coordinator:
        break;
    }
    return std::nullopt;
}

} // namespace sahaj::admission
