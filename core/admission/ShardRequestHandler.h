#pragma once

#include "core/admission/ShardLibrary.h"
#include "core/net/TokenBucket.h"
#include "core/net/protocol.pb.h"
#include "core/security/PeerId.h"

#include <QByteArray>
#include <QString>

#include <optional>
#include <string>

namespace sahaj::admission {

// The coordinator's data mirror, without sockets: the answer to one ShardRequest.
//  1. the request's token is the organiser's, for this run, valid now, naming the sender and the CURVE key
//     of the connection it came on (admitted is required; a token copied from another peer is worth
//     nothing without that peer's keys);
//  2. the file is one the library serves, the offset inside it;
//  3. the mirror's rate cap: over it, the requester is told to come back later instead of being made to
//     wait on the endpoint's thread, which also answers token requests.
// A piece is at most WireLimits::kMaxShardPieceBytes, read from disk when asked: the mirror holds no file
// in memory. Used by one thread (TokenServer's).
class ShardRequestHandler {
public:
    struct Answer {
        wire::ShardData reply;
        QByteArray bytes; // the data frame's bytes; empty with a refusal or a retry_after_ms
    };

    // bytesPerSecond: the mirror's cap on what it sends, over all requesters; 0 for none. Throws
    // std::invalid_argument for a negative or non-finite rate.
    ShardRequestHandler(ShardLibrary library, security::PeerId organiser, QString runId,
                        double bytesPerSecond);

    // The answer to `request` (a decoded envelope whose body is a ShardRequest) that arrived on a
    // connection whose ZAP user id is `connectionUser` (the hex of its CURVE key), at `nowSeconds` (Unix
    // time). Never throws; a file that cannot be read is a refusal.
    Answer answer(const wire::Envelope& request, const std::string& connectionUser, qint64 nowSeconds,
                  net::TokenBucket::Clock::time_point now = net::TokenBucket::Clock::now());

    // Why a token does not let its bearer fetch here; empty when it does.
    QString tokenProblem(const wire::Envelope& request, const std::string& connectionUser,
                         qint64 nowSeconds) const;

private:
    ShardLibrary library_;
    security::PeerId organiser_;
    QString runId_;
    net::TokenBucket bucket_;
};

} // namespace sahaj::admission
