#pragma once

#include <stdexcept>
#include <string>

namespace sahaj::net {

// A message that breaks the protocol: malformed, out of bounds, or inconsistent with what the receiver
// knows. The receiver drops the message; the caller decides whether to exclude the sender.
class ProtocolViolation : public std::runtime_error {
public:
    explicit ProtocolViolation(const std::string& what) : std::runtime_error(what) {}
};

} // namespace sahaj::net
