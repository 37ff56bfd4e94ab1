#pragma once

#include <cstddef>
#include <cstdint>

namespace sahaj::net {

// Bounds on what a peer may send. They let a receiver reject a hostile or broken message before
// allocating for it, and they are set on the sockets too (ZMQ_MAXMSGSIZE) so that libzmq drops an
// oversized frame before it is even assembled.
struct WireLimits {
    static constexpr std::uint32_t kProtocolVersion = 1;
    static constexpr std::size_t kPeerIdBytes = 32; // Ed25519 public key
    static constexpr std::size_t kGroupIdBytes = 16;
    static constexpr std::size_t kMaxRunIdBytes = 64;
    static constexpr std::size_t kMaxEnvelopeBytes = 1 << 20;   // member lists of large groups fit
    static constexpr std::size_t kMaxDataFrameBytes = 64 << 20; // a part or a state chunk
    static constexpr std::size_t kMaxFrames = 2;                // envelope + one data frame
    static constexpr std::size_t kMaxGroupSize = 1024;
    // A bandwidth, in values per second, is 0 (unknown) or in [kMinBandwidth, kMaxBandwidth]: four bytes a
    // second is below any link that trains, 4 TB/s above any. Outside that range a claim is a lie, and a
    // denormal one (1e-310) would make the load balancer's 1/bandwidth infinite.
    static constexpr double kMinBandwidth = 1.0;
    static constexpr double kMaxBandwidth = 1e12;
    static constexpr bool plausibleBandwidth(double valuesPerSecond) {
        return valuesPerSecond == 0.0 ||
               (valuesPerSecond >= kMinBandwidth && valuesPerSecond <= kMaxBandwidth);
    }
    static constexpr std::uint32_t kMaxPartElements = 16u << 20;
    // The all-reduce's flat vector (every parameter of the model). Far above any model a volunteer can
    // train, and low enough that the span counts of a whole group add up without overflowing.
    static constexpr std::uint64_t kMaxVectorElements = std::uint64_t{1} << 48;
    static constexpr std::uint32_t kMaxQuantisationBlock = 1u << 20;
    static constexpr std::size_t kMaxEndpointBytes = 256;
    static constexpr std::size_t kMaxTextBytes = 1024; // reasons, error messages
    // The longest wait a token endpoint may ask of a volunteer it rate-limits (TokenReply): its windows are
    // a minute; more would let a slow or lying endpoint park volunteers.
    static constexpr std::uint32_t kMaxRetryAfterSeconds = 600;
    static constexpr std::size_t kMaxHashBytes = 64;
    static constexpr std::uint32_t kMaxStateChunks = 1u << 20;
    // Admission (token requests and replies).
    static constexpr std::size_t kMaxTokenBytes = 1024;  // security::AccessToken::kMaxBytes
    static constexpr std::size_t kMaxUsernameBytes = 64; // security::Username::kMaxBytes
    static constexpr std::size_t kMaxSecretBytes = 256;  // a password or an invite code
    static constexpr std::size_t kCurveKeyBytes = 32;    // a raw CURVE (X25519) public key
    static constexpr std::size_t kSignatureBytes = 64;   // Ed25519
    static constexpr std::size_t kTokenNonceBytes = 16;  // a token request's envelope nonce
    // Data mirror (shard requests and their pieces).
    static constexpr std::size_t kSha256Bytes = 32;
    static constexpr std::uint32_t kMaxShardPieceBytes = 1u << 20;
    static constexpr std::uint64_t kMaxShardBytes = std::uint64_t{1} << 40; // far above any run's shard
    static constexpr std::uint32_t kMaxRetryAfterMs = 60000;
};

} // namespace sahaj::net
