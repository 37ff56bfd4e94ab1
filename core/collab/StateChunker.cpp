#include "core/collab/StateChunker.h"

#include "core/net/WireLimits.h"

#include <QCryptographicHash>

#include <stdexcept>

namespace sahaj::collab {

StateChunker::StateChunker(std::string bytes, std::uint64_t epoch, std::size_t chunkBytes)
    : bytes_(std::move(bytes)), epoch_(epoch), chunkBytes_(chunkBytes) {
    if (bytes_.empty() || chunkBytes_ == 0 || chunkBytes_ > net::WireLimits::kMaxDataFrameBytes)
        throw std::invalid_argument("a state snapshot needs bytes and a chunk size in [1, 64 MiB]");
    const std::size_t count = (bytes_.size() + chunkBytes_ - 1) / chunkBytes_;
    if (count > net::WireLimits::kMaxStateChunks)
        throw std::invalid_argument("the state snapshot is too large for its chunk size");
    chunks_ = static_cast<std::uint32_t>(count);
    sha256_ = QCryptographicHash::hash(QByteArrayView(bytes_.data(), static_cast<qsizetype>(bytes_.size())),
                                       QCryptographicHash::Sha256)
                  .toStdString();
}

wire::StateChunk StateChunker::header(std::uint32_t index) const {
    if (index >= chunks_)
        throw std::out_of_range("state chunk " + std::to_string(index) + " of " + std::to_string(chunks_));
    wire::StateChunk chunk;
    chunk.set_epoch(epoch_);
    chunk.set_chunk(index);
    chunk.set_chunks(chunks_);
    chunk.set_snapshot_id(snapshotId());
    if (index + 1 == chunks_)
        chunk.set_sha256(sha256_);
    return chunk;
}

std::string_view StateChunker::bytes(std::uint32_t index) const {
    if (index >= chunks_)
        throw std::out_of_range("state chunk " + std::to_string(index) + " of " + std::to_string(chunks_));
    const std::size_t begin = static_cast<std::size_t>(index) * chunkBytes_;
    return std::string_view(bytes_).substr(begin, std::min(chunkBytes_, bytes_.size() - begin));
}

zmq::message_t StateChunker::data(std::uint32_t index) const {
    const std::string_view chunk = bytes(index);
    return zmq::message_t(chunk.data(), chunk.size());
}

zmq::message_t StateChunker::sharedData(const std::shared_ptr<const StateChunker>& snapshot,
                                        std::uint32_t index) {
    const std::string_view chunk = snapshot->bytes(index);
    // ZeroMQ calls the release function from its I/O thread; the shared count is atomic.
    auto* keep = new std::shared_ptr<const StateChunker>(snapshot);
    return zmq::message_t(
        const_cast<char*>(chunk.data()), chunk.size(),
        [](void*, void* hint) { delete static_cast<std::shared_ptr<const StateChunker>*>(hint); }, keep);
}

} // namespace sahaj::collab
