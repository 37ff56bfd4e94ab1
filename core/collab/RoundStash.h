#pragma once

#include "core/net/WireMessage.h"

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace sahaj::collab {

// The messages members send for a round this peer has not begun yet (their parts and connection notices
// arrive while it still gathers or computes), kept until the round takes them. Any admitted peer may send
// such messages for groups it makes up or epochs far ahead, so the stash is bounded in bytes, overall
// and per sender, and keeps only the epochs this peer can still average in (its own and the next): a
// flooder fills its own share, and honest members' early parts still find room.
class RoundStash {
public:
    static constexpr std::uint64_t kMaxBytes = 256ull << 20;
    static constexpr std::uint64_t kMaxBytesPerSender = 64ull << 20;
    // What one message costs besides its bytes (its envelope's fields in memory, the entry).
    static constexpr std::uint64_t kOverheadBytes = 256;

    // Keeps `message`, a round message (AllReduceRound::roundEpochOf), when its epoch is `localEpoch` or
    // the next and its sender's and the stash's bounds leave room; false when it is dropped.
    bool add(net::WireMessage message, std::uint64_t localEpoch);
    // Takes the messages for group `groupId`, and drops those of any epoch before `epoch`: they have no
    // round to go to any more.
    std::vector<net::WireMessage> take(const std::string& groupId, std::uint64_t epoch);

    // Who sent the messages kept for group `groupId` at `epoch`: members that began its round before this
    // peer did.
    std::set<std::string> sendersOf(const std::string& groupId, std::uint64_t epoch) const;

    std::size_t size() const { return entries_.size(); }
    std::uint64_t bytes() const { return bytes_; }
    std::uint64_t dropped() const { return dropped_; }
    // Messages kept since construction: a count that moves whenever one arrives.
    std::uint64_t added() const { return added_; }

    // What `message` counts for against the bounds.
    static std::uint64_t costOf(const net::WireMessage& message);

private:
    struct Entry {
        net::WireMessage message;
        std::uint64_t cost = 0;
    };
    void release(const Entry& entry);

    std::vector<Entry> entries_;
    std::map<std::string, std::uint64_t> bytesBySender_;
    std::uint64_t bytes_ = 0;
    std::uint64_t dropped_ = 0;
    std::uint64_t added_ = 0;
};

} // namespace sahaj::collab
