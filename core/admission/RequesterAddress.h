#pragma once

#include <QString>

#include <string>

namespace sahaj::admission {

// Whose allowance a request at the token endpoint spends (TokenAuthority's per-address limits): the
// connection's IPv4 address, or the /64 network of an IPv6 one — a home or a server gets a whole /64,
// so counting single IPv6 addresses would give one attacker 2^64 allowances. An IPv4-mapped IPv6
// address counts as its IPv4 address; anything unparsable counts as itself.
class RequesterAddress {
public:
    static QString keyOf(const std::string& peerAddress);
    // The connection's address as one dials it: an IPv4-mapped IPv6 address as its IPv4 form, any other
    // as it is.
    static QString numeric(const std::string& peerAddress);
};

} // namespace sahaj::admission
