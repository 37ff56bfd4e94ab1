#pragma once

#include <chrono>
#include <stdexcept>
#include <string>

namespace sahaj::admission {

// The token endpoint answered, and the answer was no: what() is the endpoint's reason (a wrong password,
// a used invite, a clock too far off), meant for the volunteer. Distinct from a std::runtime_error about
// the endpoint itself (unreachable, silent, or returning something unusable), after which trying again
// may help where after this it will not until something changes.
//
// A refusal by a rate limit passes: retryAfter() says when the endpoint will listen again (0: the refusal
// stands).
class TokenRefused : public std::runtime_error {
public:
    explicit TokenRefused(const std::string& reason, std::chrono::seconds retryAfter = {})
        : std::runtime_error(reason), retryAfter_(retryAfter) {}

    std::chrono::seconds retryAfter() const { return retryAfter_; }

private:
    std::chrono::seconds retryAfter_;
};

} // namespace sahaj::admission
