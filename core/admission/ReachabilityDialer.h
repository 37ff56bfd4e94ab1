#pragma once

#include "core/net/DialAttempts.h"
#include "core/net/protocol.pb.h"
#include "core/security/PeerId.h"

#include <QString>

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace sahaj::admission {

// The token endpoint's answer to "can others dial me?" (ReachabilityRequest), without the endpoint's
// socket: it dials the requester back and reports what happened. What bounds it, since any admitted peer
// may ask anything:
//  - only the address the request came from is dialled (the request names a port, never an address), so
//    no peer can aim the coordinator at a third party;
//  - only admitted peers are dialled (AdmittedToken), one dial per peer at a time, at most kMaxPending in
//    all, each given up after kDialTimeout; over that, the requester is told the endpoint is busy.
// Used by one thread (TokenServer's).
class ReachabilityDialer {
public:
    static constexpr std::chrono::milliseconds kDialTimeout{3000};
    static constexpr std::size_t kMaxPending = 64;

    // A finished dial: whom to send its reply to.
    struct Finished {
        std::string route; // the requester's ROUTER routing id
        std::uint64_t requestId = 0;
        std::string sender;     // raw peer id
        std::uint16_t port = 0; // the port dialled
        wire::ReachabilityReply reply;
    };

    ReachabilityDialer(security::PeerId organiser, QString runId,
                       std::chrono::milliseconds timeout = kDialTimeout,
                       std::size_t maxPending = kMaxPending);

    // Takes `request` (a decoded envelope whose body is a ReachabilityRequest) that came on a connection
    // whose ZAP user id is `connectionUser`, from `peerAddress` (the connection's numeric IP address) and
    // routing id `route`. Returns the reply at once when nothing is dialled (a refusal); nullopt when a
    // dial began, whose reply finished() gives.
    std::optional<wire::ReachabilityReply> request(const wire::Envelope& request,
                                                   const std::string& connectionUser,
                                                   const std::string& peerAddress, std::string route,
                                                   qint64 nowSeconds);

    // The dials that ended, waiting up to `wait` for one when some are under way.
    std::vector<Finished> finished(std::chrono::milliseconds wait = std::chrono::milliseconds::zero());

    bool busy() const { return !pending_.empty(); }

private:
    security::PeerId organiser_;
    QString runId_;
    std::chrono::milliseconds timeout_;
    net::DialAttempts dials_;
    std::map<std::uint64_t, Finished> pending_; // by dial id: the reply, its outcome not yet known
};

} // namespace sahaj::admission
