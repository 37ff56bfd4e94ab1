#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <set>
#include <string>

namespace sahaj::admission {

// Remembers the (sender, nonce) pairs of the token requests served, so that a captured request is never
// served twice. A request is only served while its timestamp is within the replay window of the
// endpoint's clock, so a pair needs remembering only until its timestamp + window: after that the
// timestamp check refuses the replay by itself. Memory is bounded: when `capacity` live pairs are held,
// new requests are turned away (a burst that large is an attack, and forgetting a live pair would let a
// replay through).
class ReplayGuard {
public:
    enum class Verdict { Fresh, Replayed, Full };

    ReplayGuard(std::int64_t windowMs, std::size_t capacity);

    // What admit() would answer, without recording anything: the token endpoint asks before deciding,
    // and records only the requests it served, so that a flood of requests it refuses cannot fill the
    // guard and lock out the renewals of admitted volunteers.
    Verdict check(const std::string& sender, const std::string& nonce, std::int64_t nowMs);
    // Records the pair and returns Fresh, or Replayed when it is remembered, or Full. `timestampMs` is
    // the request's own timestamp, already checked to be within the window of `nowMs`.
    Verdict admit(const std::string& sender, const std::string& nonce, std::int64_t timestampMs,
                  std::int64_t nowMs);

    std::size_t size() const { return pairs_.size(); }

private:
    void forgetExpired(std::int64_t nowMs);

    std::int64_t windowMs_;
    std::size_t capacity_;
    std::set<std::string> pairs_;                     // sender + nonce
    std::multimap<std::int64_t, std::string> expiry_; // when each pair can be forgotten
};

} // namespace sahaj::admission
