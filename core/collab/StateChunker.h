#pragma once

#include "core/net/protocol.pb.h"

#include <zmq.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace sahaj::collab {

// A donor's view of one snapshot being served: the bytes cut into chunks of chunkBytes, each sent as a
// StateChunk header plus a data frame. The snapshot id is the first 16 bytes of the sha256 of the whole,
// so every chunk names the snapshot it belongs to and a receiver can never splice two snapshots; the last
// chunk carries the full sha256. Immutable once built, so serving never holds a lock: training moves on
// while a snapshot is served, and a new epoch makes a new snapshot.
class StateChunker {
public:
    static constexpr std::size_t kDefaultChunkBytes = 4u << 20;

    // Throws std::invalid_argument for empty bytes or a chunk size of 0.
    StateChunker(std::string bytes, std::uint64_t epoch, std::size_t chunkBytes = kDefaultChunkBytes);

    std::uint32_t chunks() const { return chunks_; }
    std::uint64_t epoch() const { return epoch_; }
    const std::string& sha256() const { return sha256_; }
    // What every chunk's header names it by: the first 16 bytes of its sha256.
    std::string snapshotId() const { return sha256_.substr(0, 16); }
    std::uint64_t size() const { return bytes_.size(); }

    // Throws std::out_of_range for an index >= chunks().
    wire::StateChunk header(std::uint32_t index) const;
    // The chunk's bytes, inside the snapshot (valid as long as it lives), and a copy of them as a frame.
    std::string_view bytes(std::uint32_t index) const;
    zmq::message_t data(std::uint32_t index) const;
    // The chunk as a frame that points into `snapshot` instead of copying it, and keeps the snapshot alive
    // until ZeroMQ has sent or dropped it: queued replies to any number of requests cost the snapshot's
    // memory once, not 4 MiB each (a requester that never reads its replies would otherwise pile up a
    // copy per 100-byte request).
    static zmq::message_t sharedData(const std::shared_ptr<const StateChunker>& snapshot,
                                     std::uint32_t index);

private:
    std::string bytes_;
    std::uint64_t epoch_;
    std::size_t chunkBytes_;
    std::uint32_t chunks_;
    std::string sha256_;
};

} // namespace sahaj::collab
