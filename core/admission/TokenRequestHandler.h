#pragma once

#include "core/admission/ReplayGuard.h"
#include "core/net/MessageCodec.h"
#include "core/net/protocol.pb.h"
#include "core/security/TokenAuthority.h"

#include <QString>

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>

namespace sahaj::admission {

// The token endpoint's decision on one request, without sockets: the checks that make a request
// trustworthy, in order, then the run's TokenAuthority.
//  1. the request names the CURVE key of its own connection (else a stranger could get a token bound to
//     someone else's transport key);
//  2. its timestamp is within kReplayWindow of this clock;
//  3. its proof is the sender's Ed25519 signature of TokenRequestProof's bytes (the sender holds the
//     identity the token will name);
//  4. its (sender, nonce) was not served before (a captured request is worth nothing; only served
//     requests are remembered, so that refused ones cannot fill the memory and lock out renewals);
//  5. the authority's policy (open, allowlist, invites, or a renewal with the current token), whose
//     rate limits count per connection address.
// Used by one thread (TokenServer's).
class TokenRequestHandler {
public:
    static constexpr std::chrono::seconds kReplayWindow = net::MessageCodec::kReplayWindow; // one window
    static constexpr std::size_t kMaxRememberedNonces = 65536;

    // Where the endpoint's remarks go (called on the thread that calls answer()).
    using Log = std::function<void(const QString&)>;

    // `rememberedRequests`: how many served requests the replay guard holds at most (ReplayGuard).
    TokenRequestHandler(security::TokenAuthority authority, Log log,
                        std::size_t rememberedRequests = kMaxRememberedNonces);

    // The reply to `request` (a decoded envelope whose body is a TokenRequest) that arrived on a
    // connection whose ZAP user id is `connectionUser` (the hex of its CURVE key), from `connectionAddress`
    // (its IP address, "" when unknown), at `nowMs` (ms since the Unix epoch): a token, or a refusal
    // saying why. Never throws.
    wire::TokenReply answer(const wire::Envelope& request, const std::string& connectionUser,
                            const QString& connectionAddress, std::int64_t nowMs);
    // Whether the organiser revoked the peer whose raw id bytes are `sender` (false for bytes that are no
    // peer id: such a request fails its token check anyway).
    bool revoked(const std::string& sender);

private:
    // Steps 1 to 4: empty when the request may go to the authority, otherwise the refusal.
    QString screen(const wire::Envelope& request, const std::string& connectionUser, std::int64_t nowMs);
    wire::TokenReply decide(const wire::Envelope& request, const QString& connectionAddress,
                            std::int64_t nowMs);

    security::TokenAuthority authority_;
    Log log_;
    QString loggedListProblem_; // said once per problem, not at every request
    ReplayGuard replays_;
};

} // namespace sahaj::admission
