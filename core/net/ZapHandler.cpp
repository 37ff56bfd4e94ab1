#include "core/net/ZapHandler.h"

#include <QByteArray>
#include <QDateTime>

#include <algorithm>
#include <stdexcept>
#include <string_view>

namespace sahaj::net {

namespace {

// libzmq sends its ZAP requests to this endpoint of the socket's own context (RFC 27).
constexpr const char* kZapEndpoint = "inproc://zeromq.zap.01";
constexpr const char* kZapVersion = "1.0";
constexpr const char* kAccepted = "200";
constexpr const char* kRefused = "400";
constexpr const char* kCurve = "CURVE";
constexpr std::size_t kKeyBytes = 32;
constexpr std::size_t kMaxDomainBytes = 254;
// A CURVE request has 7 frames (version, request id, domain, address, identity, mechanism, key). Frames
// beyond this are drained and not kept, so that a broken request cannot make the handler hoard memory.
constexpr std::size_t kMaxRequestFrames = 8;
// How often the thread looks whether it should stop; also the longest the destructor waits for it.
constexpr std::chrono::milliseconds kPollInterval{100};

std::string toHex(const std::string& bytes) {
    return QByteArray::fromStdString(bytes).toHex().toStdString();
}

void requireKeySize(const std::string& bytes, const char* what) {
    if (bytes.size() != kKeyBytes)
        throw std::invalid_argument(std::string(what) + " must have " + std::to_string(kKeyBytes) +
                                    " bytes, not " + std::to_string(bytes.size()));
}

} // namespace

std::string ZapHandler::runDomain(const std::string& runId) {
    return "sahaj-run/" + runId;
}

ZapHandler::ZapHandler(zmq::context_t& context, std::string runDomain,
                       std::chrono::milliseconds admissionWait)
    : runDomain_(std::move(runDomain)), admissionWait_(admissionWait),
      socket_(context, zmq::socket_type::router) {
    if (runDomain_.empty() || runDomain_.size() > kMaxDomainBytes || runDomain_ == kAdmissionDomain)
        throw std::invalid_argument("a run's ZAP domain must have 1 to " + std::to_string(kMaxDomainBytes) +
                                    " bytes and differ from the admission domain");
    // Replies to libzmq's own sessions: nothing worth waiting for once the handler stops.
    socket_.set(zmq::sockopt::linger, 0);
    socket_.bind(kZapEndpoint); // EADDRINUSE when the context has a handler already
    thread_ = std::thread(&ZapHandler::threadMain, this);
}

ZapHandler::~ZapHandler() {
    {
        const std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    thread_.join();
}

void ZapHandler::admit(const std::string& curveKey, const std::string& peerId, std::int64_t expiresAtMs) {
    requireKeySize(curveKey, "a CURVE key");
    requireKeySize(peerId, "a peer id");
    const std::int64_t now = QDateTime::currentMSecsSinceEpoch();
    const std::lock_guard lock(mutex_);
    // Called for every record every read of the DHT brings: the same tokens again and again. The list is
    // swept at most once per kPruneInterval, not at each call.
    if (now >= nextPruneMs_) {
        pruneExpired(now);
        nextPruneMs_ = now + kPruneInterval.count();
    }
    if (expiresAtMs <= now) {
        // An already expired token admits nothing, and still replaces what the key had before.
        admitted_.erase(curveKey);
        return;
    }
    admitted_[curveKey] = Admission{peerId, expiresAtMs};
}

void ZapHandler::ban(const std::string& peerId, std::int64_t untilMs) {
    const std::int64_t now = QDateTime::currentMSecsSinceEpoch();
    const std::lock_guard lock(mutex_);
    pruneExpired(now);
    if (untilMs <= now)
        return;
    std::int64_t& until = bans_[peerId];
    until = std::max(until, untilMs);
}

bool ZapHandler::isBanned(const std::string& peerId, std::int64_t nowMs) const {
    const std::lock_guard lock(mutex_);
    const auto ban = bans_.find(peerId);
    return ban != bans_.end() && nowMs < ban->second;
}

std::uint64_t ZapHandler::accepted() const {
    const std::lock_guard lock(mutex_);
    return accepted_;
}

std::uint64_t ZapHandler::refused() const {
    const std::lock_guard lock(mutex_);
    return refused_;
}

bool ZapHandler::stopRequested() const {
    const std::lock_guard lock(mutex_);
    return stopping_;
}

void ZapHandler::pruneExpired(std::int64_t now) {
    std::erase_if(admitted_, [now](const auto& entry) { return entry.second.expiresAtMs <= now; });
    std::erase_if(bans_, [now](const auto& entry) { return entry.second <= now; });
}

void ZapHandler::threadMain() {
    while (!stopRequested()) {
        try {
            zmq::pollitem_t item{socket_.handle(), 0, ZMQ_POLLIN, 0};
            zmq::poll(&item, 1, kPollInterval);
            answerWaiting(false);
            if (!(item.revents & ZMQ_POLLIN))
                continue;
            // [routing id][empty delimiter][request frames...], as libzmq's REQ-like ZAP client sends it.
            std::vector<zmq::message_t> request;
            zmq::message_t frame;
            while (socket_.recv(frame, zmq::recv_flags::dontwait)) {
                const bool more = frame.more();
                if (request.size() < kMaxRequestFrames + 2)
                    request.push_back(std::move(frame));
                if (!more)
                    break;
            }
            if (request.size() >= 2 && request[1].size() == 0)
                answer(request);
        } catch (const zmq::error_t& error) {
            // The context is being terminated: the socket must close for zmq_ctx_term to return.
            if (error.num() == ETERM)
                break;
            // Anything else (EINTR, a reply that could not go out) concerns one request: go on.
        } catch (const std::exception&) {
            // Out of memory for one request: the handshake is refused by libzmq's timeout; go on.
        }
    }
    answerWaiting(true);
    socket_.close();
}

void ZapHandler::answer(std::vector<zmq::message_t>& envelope) {
    const std::string route = envelope[0].to_string();
    const std::vector<zmq::message_t> request(std::make_move_iterator(envelope.begin() + 2),
                                              std::make_move_iterator(envelope.end()));
    // The reply echoes the request id (when there was one) so that libzmq matches it to its handshake.
    const std::string requestId = request.size() > 1 ? request[1].to_string() : std::string();
    Verdict verdict;
    try {
        verdict = judge(request);
    } catch (const std::exception& error) {
        verdict = Verdict{false, std::string("internal error: ") + error.what(), {}};
    }
    if (verdict.waitable && admissionWait_.count() > 0) {
        if (waiting_.size() < kMaxWaiting) {
            waiting_.push_back({route, requestId, request[6].to_string(),
                                std::chrono::steady_clock::now() + admissionWait_});
            return;
        }
        // Full (a flood of strangers' handshakes): unanswered, as when a wait runs out. The client's
        // handshake times out and it asks again; a refusal would shut an honest newcomer out for good,
        // since libzmq never retries a refused handshake.
        const std::lock_guard lock(mutex_);
        ++refused_;
        return;
    }
    reply(route, requestId, std::move(verdict));
}

void ZapHandler::answerWaiting(bool all) {
    const auto now = std::chrono::steady_clock::now();
    for (auto it = waiting_.begin(); it != waiting_.end();) {
        Verdict verdict = judgeRunKey(it->curveKey);
        if (verdict.accepted || all || !verdict.waitable) {
            reply(it->route, it->requestId, std::move(verdict));
            it = waiting_.erase(it);
        } else if (now >= it->deadline) {
            // Unanswered on purpose (see kDefaultAdmissionWait): counted as refused, retried by the client.
            const std::lock_guard lock(mutex_);
            ++refused_;
            it = waiting_.erase(it);
        } else {
            ++it;
        }
    }
}

void ZapHandler::reply(const std::string& route, const std::string& requestId, Verdict verdict) {
    {
        const std::lock_guard lock(mutex_);
        ++(verdict.accepted ? accepted_ : refused_);
    }
    std::vector<zmq::message_t> reply;
    reply.emplace_back(route);
    reply.emplace_back();
    reply.emplace_back(std::string(kZapVersion));
    reply.emplace_back(requestId);
    reply.emplace_back(std::string(verdict.accepted ? kAccepted : kRefused));
    reply.emplace_back(std::move(verdict.statusText));
    reply.emplace_back(std::move(verdict.userId));
    reply.emplace_back(); // metadata: none
    for (std::size_t i = 0; i < reply.size(); ++i)
        socket_.send(reply[i], i + 1 < reply.size() ? zmq::send_flags::sndmore : zmq::send_flags::none);
}

ZapHandler::Verdict ZapHandler::judge(const std::vector<zmq::message_t>& request) {
    if (request.size() < 6)
        return {false,
                "malformed ZAP request: " + std::to_string(request.size()) + " frames, at least 6 needed",
                {}};
    if (request[0].to_string_view() != kZapVersion)
        return {false, "unsupported ZAP version", {}};
    const std::string_view domain = request[2].to_string_view();
    const std::string_view mechanism = request[5].to_string_view();
    if (mechanism != kCurve)
        return {false, "only CURVE connections are accepted", {}};
    if (request.size() != 7 || request[6].size() != kKeyBytes)
        return {false, "malformed CURVE credentials", {}};
    const std::string curveKey = request[6].to_string();
    if (domain == kAdmissionDomain)
        return {true, "OK", toHex(curveKey)};
    if (domain != runDomain_)
        return {false, "unknown ZAP domain", {}};
    return judgeRunKey(curveKey);
}

ZapHandler::Verdict ZapHandler::judgeRunKey(const std::string& curveKey) {
    const std::int64_t now = QDateTime::currentMSecsSinceEpoch();
    const std::lock_guard lock(mutex_);
    const auto admission = admitted_.find(curveKey);
    if (admission == admitted_.end())
        return {false, "CURVE key not admitted", {}, true};
    if (admission->second.expiresAtMs <= now) {
        admitted_.erase(admission);
        return {false, "the token admitting this CURVE key has expired", {}};
    }
    const auto ban = bans_.find(admission->second.peerId);
    if (ban != bans_.end() && now < ban->second)
        return {false, "peer banned", {}};
    return {true, "OK", toHex(admission->second.peerId)};
}

} // namespace sahaj::net
