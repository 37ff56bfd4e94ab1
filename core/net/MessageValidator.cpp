#include "core/net/MessageValidator.h"

#include "core/net/LogText.h"
#include "core/net/ProtocolViolation.h"
#include "core/net/WireLimits.h"

#include <QRegularExpression>
#include <QString>

#include <cmath>
#include <string>

namespace sahaj::net {

namespace {

[[noreturn]] void violation(const std::string& problem) {
    throw ProtocolViolation(problem);
}

void require(bool condition, const std::string& problem) {
    if (!condition)
        violation(problem);
}

void checkGroupId(const std::string& bytes, const char* field) {
    require(bytes.size() == WireLimits::kGroupIdBytes, std::string(field) + " must be " +
                                                           std::to_string(WireLimits::kGroupIdBytes) +
                                                           " bytes, got " + std::to_string(bytes.size()));
}

void checkText(const std::string& text, const char* field) {
    require(text.size() <= WireLimits::kMaxTextBytes,
            std::string(field) + " is longer than " + std::to_string(WireLimits::kMaxTextBytes) + " bytes");
}

void checkFinite(double value, const char* field, bool allowNegative = false) {
    require(std::isfinite(value) && (allowNegative || value >= 0.0),
            std::string(field) + " must be a finite" + (allowNegative ? "" : " non-negative") + " number");
}

void checkDataFrames(const std::vector<zmq::message_t>& data, std::size_t expected, const char* body) {
    require(data.size() == expected, std::string(body) + " takes " + std::to_string(expected) +
                                         " data frame(s), got " + std::to_string(data.size()));
}

// A part or an averaged part: its data frame must hold exactly `count` values in its encoding.
template <typename Part>
void checkPart(const Part& part, const std::vector<zmq::message_t>& data, const char* body) {
    checkGroupId(part.group_id(), "group_id");
    require(part.count() >= 1 && part.count() <= WireLimits::kMaxPartElements,
            std::string(body) + ".count must be in [1, " + std::to_string(WireLimits::kMaxPartElements) +
                "]");
    require(part.offset() <= WireLimits::kMaxVectorElements, std::string(body) + ".offset is out of range");
    checkDataFrames(data, 1, body);
    const std::uint64_t expected = MessageValidator::encodedBytes(part.encoding(), part.count());
    require(data.front().size() == expected,
            std::string(body) + " data frame holds " + std::to_string(data.front().size()) + " bytes, " +
                std::to_string(expected) + " expected for its count and encoding");
}

// The syntax of a seal; its signature and meaning are the round's to check (collab::SpanSeals).
void checkSeal(const wire::SpanSeal& seal, const std::string& field) {
    checkGroupId(seal.group_id(), (field + ".group_id").c_str());
    require(seal.span() < WireLimits::kMaxGroupSize, field + ".span is out of range");
    require(seal.aggregator().size() == WireLimits::kPeerIdBytes, field + ".aggregator must be a peer id");
    require(seal.values_sha256().size() == WireLimits::kSha256Bytes,
            field + ".values_sha256 must be 32 bytes");
    require(seal.signature().size() == WireLimits::kSignatureBytes, field + ".signature must be 64 bytes");
    require(seal.counted_weights_size() <= static_cast<int>(WireLimits::kMaxGroupSize),
            field + ".counted_weights has more entries than a group has members");
    for (const double weight : seal.counted_weights())
        require(std::isfinite(weight) && weight >= -1.0,
                field + ".counted_weights must be finite, and -1 or more");
}

// A member's part: its values, and its signature when there is one (sealed rounds; an empty one otherwise).
void checkTensorPart(const wire::TensorPart& part, const std::vector<zmq::message_t>& data,
                     const char* body) {
    checkPart(part, data, body);
    checkFinite(part.weight(), (std::string(body) + ".weight").c_str());
    require(part.signature().empty() || part.signature().size() == WireLimits::kSignatureBytes,
            std::string(body) + ".signature must be empty or 64 bytes");
}

void checkTokenRequest(const wire::Envelope& envelope, const std::vector<zmq::message_t>& data) {
    const wire::TokenRequest& m = envelope.token_request();
    require(m.username().size() <= WireLimits::kMaxUsernameBytes,
            "token_request.username is longer than " + std::to_string(WireLimits::kMaxUsernameBytes) +
                " bytes");
    require(m.secret().size() <= WireLimits::kMaxSecretBytes,
            "token_request.secret is longer than " + std::to_string(WireLimits::kMaxSecretBytes) + " bytes");
    require(m.curve_key().size() == WireLimits::kCurveKeyBytes,
            "token_request.curve_key must be " + std::to_string(WireLimits::kCurveKeyBytes) + " bytes, got " +
                std::to_string(m.curve_key().size()));
    require(m.role() == wire::ROLE_NODE || m.role() == wire::ROLE_CLIENT || m.role() == wire::ROLE_AUXILIARY,
            "token_request.role must be node, client or auxiliary");
    require(m.current_token().size() <= WireLimits::kMaxTokenBytes,
            "token_request.current_token is longer than " + std::to_string(WireLimits::kMaxTokenBytes) +
                " bytes");
    require(m.proof().size() == WireLimits::kSignatureBytes,
            "token_request.proof must be a " + std::to_string(WireLimits::kSignatureBytes) +
                "-byte signature, got " + std::to_string(m.proof().size()));
    // The endpoint refuses a nonce it has seen: a request without one could be replayed at will.
    require(envelope.nonce().size() == WireLimits::kTokenNonceBytes,
            "a token_request's envelope nonce must be " + std::to_string(WireLimits::kTokenNonceBytes) +
                " bytes, got " + std::to_string(envelope.nonce().size()));
    checkDataFrames(data, 0, "token_request");
}

void checkSha256(const std::string& bytes, const char* field) {
    require(bytes.size() == WireLimits::kSha256Bytes,
            std::string(field) + " must be a " + std::to_string(WireLimits::kSha256Bytes) +
                "-byte SHA-256, got " + std::to_string(bytes.size()));
}

void checkShardRequest(const wire::ShardRequest& m, const std::vector<zmq::message_t>& data) {
    checkSha256(m.sha256(), "shard_request.sha256");
    require(m.offset() < WireLimits::kMaxShardBytes, "shard_request.offset is out of range");
    require(m.length() >= 1 && m.length() <= WireLimits::kMaxShardPieceBytes,
            "shard_request.length must be in [1, " + std::to_string(WireLimits::kMaxShardPieceBytes) + "]");
    require(!m.token().empty() && m.token().size() <= WireLimits::kMaxTokenBytes,
            "shard_request.token must hold 1 to " + std::to_string(WireLimits::kMaxTokenBytes) + " bytes");
    checkDataFrames(data, 0, "shard_request");
}

void checkShardData(const wire::ShardData& m, const std::vector<zmq::message_t>& data) {
    checkSha256(m.sha256(), "shard_data.sha256");
    require(m.total() >= 1 && m.total() <= WireLimits::kMaxShardBytes, "shard_data.total is out of range");
    checkText(m.refusal(), "shard_data.refusal");
    require(m.retry_after_ms() <= WireLimits::kMaxRetryAfterMs,
            "shard_data.retry_after_ms is above " + std::to_string(WireLimits::kMaxRetryAfterMs));
    const bool refused = !m.refusal().empty();
    const bool later = m.retry_after_ms() > 0;
    require(!(refused && later), "shard_data carries both a refusal and a retry_after_ms");
    if (refused || later) {
        checkDataFrames(data, 0, "a refused or deferred shard_data");
        return;
    }
    checkDataFrames(data, 1, "shard_data");
    const std::uint64_t size = data.front().size();
    require(size >= 1 && size <= WireLimits::kMaxShardPieceBytes,
            "shard_data's data frame must hold 1 to " + std::to_string(WireLimits::kMaxShardPieceBytes) +
                " bytes, got " + std::to_string(size));
    require(m.offset() < m.total() && size <= m.total() - m.offset(),
            "shard_data's bytes end past the file's total");
}

void checkReachabilityRequest(const wire::ReachabilityRequest& m, const std::vector<zmq::message_t>& data) {
    require(m.port() >= 1 && m.port() <= 65535, "reachability_request.port must be in [1, 65535]");
    require(!m.token().empty() && m.token().size() <= WireLimits::kMaxTokenBytes,
            "reachability_request.token must hold 1 to " + std::to_string(WireLimits::kMaxTokenBytes) +
                " bytes");
    checkDataFrames(data, 0, "reachability_request");
}

void checkReachabilityReply(const wire::ReachabilityReply& m, const std::vector<zmq::message_t>& data) {
    checkText(m.refusal(), "reachability_reply.refusal");
    checkText(m.detail(), "reachability_reply.detail");
    if (!m.refusal().empty()) {
        require(m.observed_address().empty() && !m.reachable() && m.detail().empty(),
                "a refused reachability_reply carries no outcome");
    } else {
        // A numeric address only: it is shown to the volunteer and compared with its own.
        static const QRegularExpression numeric(QStringLiteral("^[0-9A-Fa-f.:]{2,45}$"));
        require(numeric.match(QString::fromStdString(m.observed_address())).hasMatch(),
                "reachability_reply.observed_address must be a numeric IP address");
    }
    checkDataFrames(data, 0, "reachability_reply");
}

} // namespace

std::uint64_t MessageValidator::encodedBytes(const wire::Encoding& encoding, std::uint64_t count) {
    switch (encoding.dtype()) {
    case wire::WIRE_FLOAT32:
        return 4 * count;
    case wire::WIRE_FLOAT16:
        return 2 * count;
    case wire::WIRE_UINT8_BLOCKWISE: {
        const std::uint32_t block = encoding.block();
        require(block >= 1 && block <= WireLimits::kMaxQuantisationBlock,
                "encoding.block must be in [1, " + std::to_string(WireLimits::kMaxQuantisationBlock) + "]");
        return count + 8 * ((count + block - 1) / block);
    }
    default:
        violation("encoding.dtype " + std::to_string(encoding.dtype()) + " is not a known wire dtype");
    }
}

void MessageValidator::checkPeerId(const std::string& bytes, const char* field) {
    require(bytes.size() == WireLimits::kPeerIdBytes,
            std::string(field) + " must be a " + std::to_string(WireLimits::kPeerIdBytes) +
                "-byte peer id, got " + std::to_string(bytes.size()));
}

void MessageValidator::checkEndpoint(const std::string& endpoint, const char* field, bool allowEmpty) {
    if (endpoint.empty() && allowEmpty)
        return;
    // Only TCP endpoints of the form tcp://host:port; ipc:// or wildcard binds would let a peer point
    // others at local resources or nowhere.
    static const QRegularExpression pattern(
        QStringLiteral("^tcp://[A-Za-z0-9.\\-\\[\\]:]{1,200}:([0-9]{1,5})$"));
    require(endpoint.size() <= WireLimits::kMaxEndpointBytes, std::string(field) + " is too long");
    const QRegularExpressionMatch match = pattern.match(QString::fromStdString(endpoint));
    require(match.hasMatch(), std::string(field) + " must look like tcp://host:port, got '" +
                                  LogText::utf8(endpoint, 80) + "'");
    const int port = match.captured(1).toInt();
    require(port >= 1 && port <= 65535, std::string(field) + " has port " + std::to_string(port));
}

void MessageValidator::checkMember(const wire::MemberInfo& member, const char* field) {
    const std::string prefix(field);
    checkPeerId(member.peer_id(), (prefix + ".peer_id").c_str());
    require(member.role() == wire::ROLE_NODE || member.role() == wire::ROLE_CLIENT ||
                member.role() == wire::ROLE_AUXILIARY,
            prefix + ".role must be node, client or auxiliary");
    // A client accepts no connections, so it has no endpoint; every other member must have one.
    checkEndpoint(member.endpoint(), (prefix + ".endpoint").c_str(), member.role() == wire::ROLE_CLIENT);
    require(member.role() != wire::ROLE_CLIENT || member.endpoint().empty(),
            prefix + ": a client has no endpoint");
    checkFinite(member.bandwidth(), (prefix + ".bandwidth").c_str());
    require(WireLimits::plausibleBandwidth(member.bandwidth()),
            prefix + ".bandwidth must be 0 (unknown) or between 1 and 1e12 values per second");
    checkFinite(member.weight(), (prefix + ".weight").c_str());
    require(member.role() != wire::ROLE_AUXILIARY || member.weight() == 0.0,
            prefix + ": an auxiliary member has weight 0");
    require(member.token().size() <= WireLimits::kMaxTokenBytes,
            prefix + ".token is longer than " + std::to_string(WireLimits::kMaxTokenBytes) + " bytes");
}

void MessageValidator::validate(const wire::Envelope& envelope, const std::vector<zmq::message_t>& data) {
    using E = wire::Envelope;
    switch (envelope.body_case()) {
    case E::kJoinRequest: {
        const wire::JoinRequest& m = envelope.join_request();
        require(m.schema_hash().size() >= 16 && m.schema_hash().size() <= WireLimits::kMaxHashBytes,
                "join_request.schema_hash must be 16 to 64 bytes");
        checkMember(m.member(), "join_request.member");
        require(m.member().peer_id() == envelope.sender(), "join_request.member.peer_id is not the sender");
        checkDataFrames(data, 0, "join_request");
        return;
    }
    case E::kJoinReply: {
        const wire::JoinReply& m = envelope.join_reply();
        require(wire::JoinReply::Code_IsValid(m.code()) && m.code() != wire::JoinReply::CODE_UNSPECIFIED,
                "join_reply.code is not a known code");
        if (m.code() == wire::JoinReply::REDIRECT) {
            checkPeerId(m.suggested_leader(), "join_reply.suggested_leader");
            checkEndpoint(m.suggested_endpoint(), "join_reply.suggested_endpoint", false);
        }
        checkDataFrames(data, 0, "join_reply");
        return;
    }
    case E::kGroupBegin: {
        const wire::GroupBegin& m = envelope.group_begin();
        checkGroupId(m.group_id(), "group_begin.group_id");
        require(
            m.members_size() >= 1 && static_cast<std::size_t>(m.members_size()) <= WireLimits::kMaxGroupSize,
            "group_begin.members must hold 1 to " + std::to_string(WireLimits::kMaxGroupSize) + " members");
        require(m.span_counts_size() == m.members_size(),
                "group_begin.span_counts must have one entry per member");
        // Bounded first: with at most kMaxGroupSize counts of at most vector_size each, the sum below
        // cannot wrap around to vector_size.
        require(m.vector_size() <= WireLimits::kMaxVectorElements,
                "group_begin.vector_size must be at most " + std::to_string(WireLimits::kMaxVectorElements));
        std::uint64_t total = 0;
        for (int i = 0; i < m.members_size(); ++i) {
            checkMember(m.members(i), "group_begin.members[]");
            for (int j = 0; j < i; ++j)
                require(m.members(j).peer_id() != m.members(i).peer_id(),
                        "group_begin.members lists a peer twice");
            require(m.members(i).role() != wire::ROLE_CLIENT || m.span_counts(i) == 0,
                    "group_begin gives a span to a client");
            require(m.span_counts(i) <= m.vector_size(), "group_begin.span_counts exceed vector_size");
            total += m.span_counts(i);
        }
        require(total == m.vector_size(), "group_begin.span_counts do not add up to vector_size");
        require(m.part_elements() >= 1 && m.part_elements() <= WireLimits::kMaxPartElements,
                "group_begin.part_elements is out of range");
        encodedBytes(m.encoding(), 1);
        checkDataFrames(data, 0, "group_begin");
        return;
    }
    case E::kTensorPart:
        checkTensorPart(envelope.tensor_part(), data, "tensor_part");
        return;
    case E::kAveragedPart:
        checkPart(envelope.averaged_part(), data, "averaged_part");
        checkFinite(envelope.averaged_part().total_weight(), "averaged_part.total_weight");
        require(envelope.averaged_part().contributors() <= WireLimits::kMaxGroupSize,
                "averaged_part.contributors is out of range");
        return;
    case E::kPartFailure:
        checkGroupId(envelope.part_failure().group_id(), "part_failure.group_id");
        checkText(envelope.part_failure().reason(), "part_failure.reason");
        checkDataFrames(data, 0, "part_failure");
        return;
    case E::kSpanReceived:
        checkGroupId(envelope.span_received().group_id(), "span_received.group_id");
        require(envelope.span_received().span() < WireLimits::kMaxGroupSize,
                "span_received.span is out of range");
        checkDataFrames(data, 0, "span_received");
        return;
    case E::kMemberConnected:
        checkGroupId(envelope.member_connected().group_id(), "member_connected.group_id");
        checkDataFrames(data, 0, "member_connected");
        return;
    case E::kSpanSeal:
        checkSeal(envelope.span_seal(), "span_seal");
        checkDataFrames(data, 0, "span_seal");
        return;
    case E::kRoundSeals:
        checkGroupId(envelope.round_seals().group_id(), "round_seals.group_id");
        require(envelope.round_seals().seals_size() <= static_cast<int>(WireLimits::kMaxGroupSize),
                "round_seals holds more seals than a group has spans");
        for (const wire::SpanSeal& seal : envelope.round_seals().seals())
            checkSeal(seal, "round_seals.seals[]");
        checkDataFrames(data, 0, "round_seals");
        return;
    case E::kAuditRequest:
        checkGroupId(envelope.audit_request().group_id(), "audit_request.group_id");
        require(envelope.audit_request().span() < WireLimits::kMaxGroupSize,
                "audit_request.span is out of range");
        checkDataFrames(data, 0, "audit_request");
        return;
    case E::kAuditedPart: {
        const wire::AuditedPart& m = envelope.audited_part();
        require(m.sender().size() == WireLimits::kPeerIdBytes, "audited_part.sender must be a peer id");
        checkTensorPart(m.part(), data, "audited_part.part");
        require(m.part().signature().size() == WireLimits::kSignatureBytes,
                "audited_part.part.signature must be 64 bytes");
        require(m.inputs() >= 1 && m.inputs() <= WireLimits::kMaxGroupSize,
                "audited_part.inputs is out of range");
        return;
    }
    case E::kStateRequest:
        require(envelope.state_request().chunk() < WireLimits::kMaxStateChunks,
                "state_request.chunk is out of range");
        require(envelope.state_request().snapshot_id().empty() ||
                    (envelope.state_request().snapshot_id().size() >= 8 &&
                     envelope.state_request().snapshot_id().size() <= WireLimits::kMaxHashBytes),
                "state_request.snapshot_id must be empty or 8 to 64 bytes");
        checkDataFrames(data, 0, "state_request");
        return;
    case E::kStateChunk: {
        const wire::StateChunk& m = envelope.state_chunk();
        require(m.chunks() >= 1 && m.chunks() <= WireLimits::kMaxStateChunks && m.chunk() < m.chunks(),
                "state_chunk.chunk must be below state_chunk.chunks");
        require(m.snapshot_id().size() >= 8 && m.snapshot_id().size() <= WireLimits::kMaxHashBytes,
                "state_chunk.snapshot_id must be 8 to 64 bytes");
        require(m.chunk() + 1 < m.chunks() || m.sha256().size() == 32,
                "the last state_chunk must carry the 32-byte sha256 of the state");
        checkDataFrames(data, 1, "state_chunk");
        return;
    }
    case E::kStateDigestRequest:
        checkDataFrames(data, 0, "state_digest_request");
        return;
    case E::kStateDigest:
        require(envelope.state_digest().sha256().size() == 32,
                "state_digest.sha256 must be the 32-byte sha256 of the state");
        require(envelope.state_digest().size() >= 1 &&
                    envelope.state_digest().size() <=
                        std::uint64_t{WireLimits::kMaxStateChunks} * WireLimits::kMaxDataFrameBytes,
                "state_digest.size is out of range");
        checkDataFrames(data, 0, "state_digest");
        return;
    case E::kPing:
    case E::kPong:
        checkDataFrames(data, 0, "ping/pong");
        return;
    case E::kLeave:
        checkText(envelope.leave().reason(), "leave.reason");
        checkDataFrames(data, 0, "leave");
        return;
    case E::kError:
        checkText(envelope.error().message(), "error.message");
        checkDataFrames(data, 0, "error");
        return;
    case E::kTokenRequest:
        checkTokenRequest(envelope, data);
        return;
    case E::kTokenReply: {
        const wire::TokenReply& m = envelope.token_reply();
        require(m.token().size() <= WireLimits::kMaxTokenBytes,
                "token_reply.token is longer than " + std::to_string(WireLimits::kMaxTokenBytes) + " bytes");
        checkText(m.refusal(), "token_reply.refusal");
        require(m.token().empty() != m.refusal().empty(),
                "token_reply must carry either a token or a refusal");
        checkDataFrames(data, 0, "token_reply");
        return;
    }
    case E::kShardRequest:
        checkShardRequest(envelope.shard_request(), data);
        return;
    case E::kShardData:
        checkShardData(envelope.shard_data(), data);
        return;
    case E::kReachabilityRequest:
        checkReachabilityRequest(envelope.reachability_request(), data);
        return;
    case E::kReachabilityReply:
        checkReachabilityReply(envelope.reachability_reply(), data);
        return;
    case E::BODY_NOT_SET:
        break;
    }
    violation("the envelope has no known body");
}

} // namespace sahaj::net
