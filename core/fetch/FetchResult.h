#pragma once

#include <QString>

#include <cstdint>

namespace sahaj::fetch {

// How one transfer ended, in the terms the downloader acts on.
struct FetchResult {
    enum class Outcome {
        Complete,   // the server sent its whole answer
        CutOff,     // the server sent more than allowed: stopped at the limit
        NotFound,   // 404 or 410: this place does not have the file
        HttpError,  // another status of 400 or more, or a range the server answered wrongly
        Stalled,    // too slow for too long, or no connection within the deadline
        Network,    // the connection failed or broke (refused, reset, TLS, DNS)
        Cancelled,  // the caller asked to stop
        SinkFailed, // the bytes could not be stored (full disk): the place is not to blame
        Refused,    // a mirror answered but would not serve (no such file, a token it does not take), or
                    // answered outside the protocol
    };
    Outcome outcome = Outcome::Network;
    long httpStatus = 0;
    // Body bytes handed to the sink (after any the caller asked to skip).
    std::int64_t received = 0;
    // curl's or the server's words, for the log and the user.
    QString message;

    bool ok() const { return outcome == Outcome::Complete || outcome == Outcome::CutOff; }
    // Whether the place itself failed (and should be reported), rather than this machine or the user.
    bool placeFailed() const {
        return !ok() && outcome != Outcome::Cancelled && outcome != Outcome::SinkFailed;
    }
    static QString outcomeName(Outcome outcome);
};

} // namespace sahaj::fetch
