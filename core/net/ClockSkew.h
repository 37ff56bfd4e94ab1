#pragma once

#include "core/net/ProtocolViolation.h"

#include <cstdint>
#include <string>

namespace sahaj::net {

// A message whose timestamp is outside the replay window of the receiver's clock (MessageCodec). Dropped
// like any violation, but never held against the sender beyond that: an honest volunteer's clock can be
// wrong, and which of the two clocks is off cannot be told from one message.
class ClockSkew : public ProtocolViolation {
public:
    ClockSkew(const std::string& what, std::int64_t skewMs) : ProtocolViolation(what), skewMs_(skewMs) {}

    // The sender's clock minus this peer's, as the message says, in milliseconds.
    std::int64_t skewMs() const { return skewMs_; }

private:
    std::int64_t skewMs_;
};

} // namespace sahaj::net
