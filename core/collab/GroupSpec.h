#pragma once

#include "core/net/protocol.pb.h"

#include <cstdint>
#include <string>
#include <vector>

namespace sahaj::collab {

// One member of an agreed group, as the leader's GroupBegin lists it.
struct GroupMember {
    std::string peerId; // 32 bytes
    wire::Role role = wire::ROLE_NODE;
    std::string endpoint; // empty for clients
    double bandwidth = 0.0;
    double weight = 0.0;    // averaging weight: samples accumulated (0: tag along, or an auxiliary)
    std::string token{};    // its access token (wire form), in runs that admit peers by token
    std::string curveKey{}; // the CURVE key that token binds: expected at its endpoint (MemberCredentials)

    // Members that hold gradients send their spans (every role but the auxiliary).
    bool sends() const { return role != wire::ROLE_AUXILIARY; }
};

// What every member of a group agrees on before the all-reduce: the same members in the same order, the
// same partition (span counts per member), the encoding and the part size. Built from a GroupBegin.
struct GroupSpec {
    std::string groupId; // 16 bytes
    std::uint64_t epoch = 0;
    std::vector<GroupMember> members;
    std::vector<std::int64_t> spanCounts;
    wire::Encoding encoding;
    std::int64_t vectorSize = 0;
    std::int64_t partElements = 0;

    int indexOf(const std::string& peerId) const; // -1 when absent

    static GroupSpec fromWire(const wire::GroupBegin& begin);
    wire::GroupBegin toWire() const;
};

} // namespace sahaj::collab
