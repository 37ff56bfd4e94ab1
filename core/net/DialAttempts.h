#pragma once

#include <QString>

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <vector>

namespace sahaj::net {

// TCP connections opened without waiting: each attempt is a non-blocking connect() with a deadline,
// looked at by poll(). Used where one thread serves many requesters and must not stall on one dial (the
// token endpoint's reachability check). A connection that is accepted is closed at once with a reset: what
// counts is that it was accepted. Owned and used by one thread.
class DialAttempts {
public:
    struct Outcome {
        std::uint64_t id = 0;
        bool connected = false;
        QString detail; // why not: "connection refused", "no answer within 3 s", ...
    };

    // At most `maxPending` attempts at once.
    explicit DialAttempts(std::size_t maxPending);
    ~DialAttempts();
    DialAttempts(const DialAttempts&) = delete;
    DialAttempts& operator=(const DialAttempts&) = delete;

    // Starts a connection to `address` (numeric IPv4 or IPv6) at `port`, failed if not accepted within
    // `timeout`. Returns its id, whose outcome a later poll() gives (at once for an address that is not
    // numeric or a connect() that fails outright); nullopt when maxPending attempts are under way.
    std::optional<std::uint64_t> start(const QString& address, std::uint16_t port,
                                       std::chrono::milliseconds timeout);

    // The attempts that ended, waiting up to `wait` for the first one when none has.
    std::vector<Outcome> poll(std::chrono::milliseconds wait = std::chrono::milliseconds::zero());

    std::size_t pending() const { return attempts_.size(); }

private:
    using Clock = std::chrono::steady_clock;
    struct Attempt {
        int fd = -1;
        Clock::time_point deadline;
        std::chrono::milliseconds timeout{};
    };

    void finish(std::uint64_t id, bool connected, const QString& detail);

    std::size_t maxPending_;
    std::uint64_t nextId_ = 1;
    std::map<std::uint64_t, Attempt> attempts_;
    std::vector<Outcome> ended_;
};

} // namespace sahaj::net
