#pragma once

#include <zmq.hpp>

#include <chrono>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace sahaj::net {

// The ZAP handler (ZeroMQ's authentication protocol, RFC 27) of one ZeroMQ context: libzmq asks it about
// every CURVE handshake on a socket of that context, and it answers from its admission list.
//
//  - On the run's domain (runDomain(runId)), a client's CURVE key is accepted only if admit() named it,
//    its token has not expired and its peer is not banned; the messages of an accepted connection carry
//    the ZAP user id "User-Id" = the hex of the admitted peer id, so a receiver can check that a message's
//    sender is the peer the handshake authenticated (authenticatedUser()).
//  - On kAdmissionDomain (the coordinator's token endpoint) any CURVE key is accepted, since strangers ask
//    there for their first token; "User-Id" is the hex of the client's CURVE key, so the endpoint can check
//    that a request names the key of its own connection.
//  - Every other domain, and every mechanism but CURVE, is refused.
//
// Servers set ZMQ_ZAP_ENFORCE_DOMAIN, so without a running handler libzmq refuses instead of admitting.
// The handler's thread owns its REP socket (bound to "inproc://zeromq.zap.01" on the context, so one
// handler per context); the admission list is the one piece of state shared with the threads that call
// admit() and ban(), and a mutex guards it.
class ZapHandler {
public:
    static constexpr const char* kAdmissionDomain = "sahaj-admission";
    // ZAP domains are at most 254 bytes; run ids are at most 64 (WireLimits::kMaxRunIdBytes).
    static std::string runDomain(const std::string& runId);

    // How long a handshake with a key not (yet) admitted waits for an admission: a peer that just got its
    // token connects as soon as its first records are out, and the owner of this handler reads them
    // within a few seconds (or, busy in a round, a little later). Past the wait the request is dropped
    // unanswered, not refused: the handshake then times out (SocketFactory, 10 s) and the client
    // reconnects and asks again, whereas libzmq never retries a refused handshake. Keys that are known
    // and expired or banned are refused at once.
    static constexpr std::chrono::milliseconds kDefaultAdmissionWait{9000};
    // At most this many handshakes wait at once; beyond, an unknown key's request goes unanswered at once
    // (its client reconnects after its handshake timeout and asks again), never refused.
    static constexpr std::size_t kMaxWaiting = 1024;

    // Binds the handler's socket on `context` and starts its thread. Throws zmq::error_t when another
    // handler is bound on the same context, std::invalid_argument when `runDomain` is empty, over 254
    // bytes or kAdmissionDomain.
    ZapHandler(zmq::context_t& context, std::string runDomain,
               std::chrono::milliseconds admissionWait = kDefaultAdmissionWait);
    // Stops the thread; handshakes still in flight are refused by libzmq.
    ~ZapHandler();
    ZapHandler(const ZapHandler&) = delete;
    ZapHandler& operator=(const ZapHandler&) = delete;

    // Accepts `curveKey` (32 raw bytes) on the run domain as `peerId` (32 raw bytes) until `expiresAtMs`
    // (ms since the Unix epoch, the expiry of the token that binds them). A later call for the same key
    // replaces the earlier one; a key bound to another peer id than before is rebound (the newest token
    // wins). Expired entries are dropped as the list is used, so it stays as large as the live tokens.
    // Throws std::invalid_argument when a key or id does not have 32 bytes.
    void admit(const std::string& curveKey, const std::string& peerId, std::int64_t expiresAtMs);
    // Refuses every key of `peerId` until `untilMs`, whatever its token says. Connections already
    // established are not cut here: their owners drop the banned peer's messages (isBanned()). A ban is
    // only ever extended: an earlier `untilMs` than the current one changes nothing.
    void ban(const std::string& peerId, std::int64_t untilMs);
    bool isBanned(const std::string& peerId, std::int64_t nowMs) const;

    // Handshakes answered so far, accepted and refused.
    std::uint64_t accepted() const;
    std::uint64_t refused() const;

private:
    // What the handler answers to one ZAP request.
    struct Verdict {
        bool accepted = false;
        std::string statusText;
        std::string userId;
        bool waitable = false; // refused only for want of an admission, which may still come
    };

    // A handshake whose key is not admitted yet: answered once it is, or refused at `deadline`.
    struct Waiting {
        std::string route;     // the ROUTER's routing id of libzmq's ZAP client
        std::string requestId; // echoed in the reply
        std::string curveKey;
        std::chrono::steady_clock::time_point deadline;
    };

    void threadMain();
    void answer(std::vector<zmq::message_t>& request);
    void reply(const std::string& route, const std::string& requestId, Verdict verdict);
    void answerWaiting(bool all);
    Verdict judge(const std::vector<zmq::message_t>& request);
    Verdict judgeRunKey(const std::string& curveKey);
    bool stopRequested() const;
    void pruneExpired(std::int64_t nowMs); // mutex_ held

    std::string runDomain_;
    std::chrono::milliseconds admissionWait_;
    // A ROUTER, not a REP, so that a reply may wait for an admission while later requests are answered.
    zmq::socket_t socket_;         // bound in the constructor, then used (and closed) by the thread alone
    std::vector<Waiting> waiting_; // the thread's alone
    struct Admission {
        std::string peerId;
        std::int64_t expiresAtMs = 0;
    };
    mutable std::mutex mutex_;                  // guards the members below
    std::map<std::string, Admission> admitted_; // by CURVE key
    std::map<std::string, std::int64_t> bans_;  // peer id -> until
    std::int64_t nextPruneMs_ = 0;
    static constexpr std::chrono::milliseconds kPruneInterval{1000};
    std::uint64_t accepted_ = 0;
    std::uint64_t refused_ = 0;
    bool stopping_ = false;
    std::thread thread_;
};

} // namespace sahaj::net
