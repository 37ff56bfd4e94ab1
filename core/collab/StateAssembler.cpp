#include "core/collab/StateAssembler.h"

#include "core/net/ProtocolViolation.h"

#include <QCryptographicHash>

#include <algorithm>

namespace sahaj::collab {

StateAssembler::StateAssembler(std::uint64_t minEpoch, std::uint64_t maxBytes,
                               std::optional<StateDigest> expected)
    : minEpoch_(minEpoch), maxBytes_(expected ? std::min(maxBytes, expected->size) : maxBytes),
      expected_(std::move(expected)) {}

bool StateAssembler::add(const wire::StateChunk& chunk, const zmq::message_t& data) {
    const auto refuse = [](const std::string& why) {
        throw net::ProtocolViolation("state download: " + why);
    };
    if (complete_)
        refuse("a chunk after the snapshot was complete");
    if (chunk.epoch() < minEpoch_)
        refuse("the donor's state (epoch " + std::to_string(chunk.epoch()) + ") is older than ours (" +
               std::to_string(minEpoch_) + ")");
    if (next_ == 0) {
        chunks_ = chunk.chunks();
        epoch_ = chunk.epoch();
        snapshotId_ = chunk.snapshot_id();
        if (expected_ && (epoch_ != expected_->epoch || snapshotId_ != expected_->sha256.substr(0, 16)))
            refuse("not the state the donors vouched for (epoch " + std::to_string(epoch_) + ", not " +
                   std::to_string(expected_->epoch) + ", or another snapshot)");
    } else if (chunk.chunks() != chunks_ || chunk.epoch() != epoch_ || chunk.snapshot_id() != snapshotId_) {
        refuse("a chunk of another snapshot");
    }
    if (chunk.chunk() != next_)
        refuse("chunk " + std::to_string(chunk.chunk()) + " where " + std::to_string(next_) +
               " was expected");
    if (bytes_.size() + data.size() > maxBytes_)
        refuse("the snapshot grows past " + std::to_string(maxBytes_) + " bytes");
    if (data.size() == 0)
        refuse("an empty chunk");
    bytes_.append(static_cast<const char*>(data.data()), data.size());
    ++next_;
    if (next_ < chunks_)
        return false;
    const QByteArray sha256 = QCryptographicHash::hash(
        QByteArrayView(bytes_.data(), static_cast<qsizetype>(bytes_.size())), QCryptographicHash::Sha256);
    if (sha256.toStdString() != chunk.sha256() || chunk.sha256().substr(0, 16) != snapshotId_)
        refuse("the snapshot's sha256 does not match its bytes");
    if (expected_ && (chunk.sha256() != expected_->sha256 || bytes_.size() != expected_->size))
        refuse("not the state the donors vouched for (another sha256 or size)");
    complete_ = true;
    return true;
}

std::string StateAssembler::snapshotToAsk() const {
    if (next_ > 0)
        return snapshotId_;
    return expected_ ? expected_->sha256.substr(0, 16) : std::string();
}

std::string StateAssembler::take() {
    if (!complete_)
        throw std::logic_error("the state download is not complete");
    return std::move(bytes_);
}

} // namespace sahaj::collab
