#include "core/admission/ReplayGuard.h"

namespace sahaj::admission {

ReplayGuard::ReplayGuard(std::int64_t windowMs, std::size_t capacity)
    : windowMs_(windowMs), capacity_(capacity) {}

void ReplayGuard::forgetExpired(std::int64_t nowMs) {
    // A pair whose expiry is now still matters: the timestamp check lets a request through at exactly
    // timestamp + window.
    auto end = expiry_.lower_bound(nowMs);
    for (auto it = expiry_.begin(); it != end; ++it)
        pairs_.erase(it->second);
    expiry_.erase(expiry_.begin(), end);
}

ReplayGuard::Verdict ReplayGuard::check(const std::string& sender, const std::string& nonce,
                                        std::int64_t nowMs) {
    forgetExpired(nowMs);
    // Peer ids have a fixed size, so sender + nonce is unambiguous.
    if (pairs_.contains(sender + nonce))
        return Verdict::Replayed;
    return pairs_.size() >= capacity_ ? Verdict::Full : Verdict::Fresh;
}

ReplayGuard::Verdict ReplayGuard::admit(const std::string& sender, const std::string& nonce,
                                        std::int64_t timestampMs, std::int64_t nowMs) {
    if (const Verdict verdict = check(sender, nonce, nowMs); verdict != Verdict::Fresh)
        return verdict;
    std::string pair = sender + nonce;
    pairs_.insert(pair);
    expiry_.emplace(timestampMs + windowMs_, std::move(pair));
    return Verdict::Fresh;
}

} // namespace sahaj::admission
