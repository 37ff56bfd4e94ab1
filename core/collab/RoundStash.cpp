#include "core/collab/RoundStash.h"

#include "core/collab/AllReduceRound.h"

#include <optional>
#include <utility>

namespace sahaj::collab {

std::uint64_t RoundStash::costOf(const net::WireMessage& message) {
    std::uint64_t cost = kOverheadBytes + message.envelope.ByteSizeLong() + message.route.size();
    for (const zmq::message_t& frame : message.data)
        cost += frame.size();
    return cost;
}

bool RoundStash::add(net::WireMessage message, std::uint64_t localEpoch) {
    const std::optional<std::uint64_t> epoch = AllReduceRound::roundEpochOf(message.envelope);
    const std::uint64_t cost = costOf(message);
    std::uint64_t& senderBytes = bytesBySender_[message.envelope.sender()];
    if (!epoch || *epoch < localEpoch || *epoch - localEpoch > 1 || bytes_ + cost > kMaxBytes ||
        senderBytes + cost > kMaxBytesPerSender) {
        if (senderBytes == 0)
            bytesBySender_.erase(message.envelope.sender());
        ++dropped_;
        return false;
    }
    senderBytes += cost;
    bytes_ += cost;
    entries_.push_back({std::move(message), cost});
    ++added_;
    return true;
}

std::vector<net::WireMessage> RoundStash::take(const std::string& groupId, std::uint64_t epoch) {
    std::vector<net::WireMessage> taken;
    std::vector<Entry> kept;
    for (Entry& entry : entries_) {
        const bool ours = AllReduceRound::isRoundMessage(entry.message.envelope, groupId);
        const bool stale = AllReduceRound::roundEpochOf(entry.message.envelope).value_or(0) < epoch;
        if (!ours && !stale) {
            kept.push_back(std::move(entry));
            continue;
        }
        release(entry);
        if (ours)
            taken.push_back(std::move(entry.message));
    }
    entries_ = std::move(kept);
    return taken;
}

std::set<std::string> RoundStash::sendersOf(const std::string& groupId, std::uint64_t epoch) const {
    std::set<std::string> senders;
    for (const Entry& entry : entries_)
        if (AllReduceRound::isRoundMessage(entry.message.envelope, groupId) &&
            AllReduceRound::roundEpochOf(entry.message.envelope) == epoch)
            senders.insert(entry.message.envelope.sender());
    return senders;
}

void RoundStash::release(const Entry& entry) {
    bytes_ -= entry.cost;
    const auto it = bytesBySender_.find(entry.message.envelope.sender());
    if (it != bytesBySender_.end() && (it->second -= entry.cost) == 0)
        bytesBySender_.erase(it);
}

} // namespace sahaj::collab
