#pragma once

#include "core/net/protocol.pb.h"

#include <zmq.hpp>

#include <cstdint>
#include <vector>

namespace sahaj::net {

// Checks every field of a received message against the protocol's bounds: sizes of ids, counts,
// finiteness and signs of weights and bandwidths, endpoint syntax, the number of data frames each body
// takes and their exact byte sizes for the declared encoding. It knows nothing of the receiver's state
// (which group, which epoch): the layers above check membership and consistency. Throws
// ProtocolViolation naming the field.
class MessageValidator {
public:
    static void validate(const wire::Envelope& envelope, const std::vector<zmq::message_t>& data);

    // Bytes of `count` values in an encoding (fp32 4, fp16 2, 8-bit 1 + 8 per block for scale and
    // offset). Throws ProtocolViolation for an unknown dtype or a bad block size.
    static std::uint64_t encodedBytes(const wire::Encoding& encoding, std::uint64_t count);

    static void checkPeerId(const std::string& bytes, const char* field);
    static void checkEndpoint(const std::string& endpoint, const char* field, bool allowEmpty);
    static void checkMember(const wire::MemberInfo& member, const char* field);
};

} // namespace sahaj::net
