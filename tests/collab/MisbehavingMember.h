#pragma once

#include "core/collab/GroupSpec.h"
#include "core/collab/PartitionPlan.h"

#include <zmq.hpp>

#include <chrono>
#include <cstddef>
#include <map>
#include <string>
#include <vector>

namespace sahaj::net {
class MessageCodec;
class SocketFactory;
} // namespace sahaj::net

namespace sahaj::test {

// A member of an all-reduce group that breaks one rule of the protocol on purpose, for the tests that
// check every aggregator rejects it while the honest members still finish the round. It does not run
// AllReduceRound: it opens a DEALER to every other aggregator (through the same SocketFactory and with
// the same peer id as an honest member would) and sends, for each part of their spans, a TensorPart made
// with the real MessageCodec and TensorEncoding in which only the one thing its Kind names is wrong.
// Its DEALERs stay open as long as the object lives, so that a connection closing is never what the
// aggregators react to.
class MisbehavingMember {
public:
    enum class Kind {
        OversizedFrame, // a data frame larger than WireLimits::kMaxDataFrameBytes
        WrongCount,     // one value fewer than the part holds, the data frame matching that count
        WrongDtype,     // another wire dtype than the group's, the data frame matching it
        WrongIndex,     // a part index past the span's parts (offset and count of a real part)
        Nan,            // one value NaN
        AbsurdWeight,   // a weight far above any sample count a peer can have
        InflatedWeight, // a plausible count, 100 times the weight it declared when it joined
        BelowFloor,     // one value of -1000, finite in every encoding, below the floor the test sets
        Stalling,       // only its first part to each aggregator, then that part again and a connection
                        // notice every 200 ms, within the rules, for six times its patience
        Burst,          // honest parts, sent kBurstPartGap apart from kBurstHoldBack after its connection
                        // notices on: an aggregator that timed only the burst would credit it with a link
                        // many times faster than its pace
    };
    static constexpr std::chrono::milliseconds kBurstHoldBack{1500};
    static constexpr std::chrono::milliseconds kBurstPartGap{20};

    struct Outcome {
        int partsSent = 0;   // handed to a connection
        int partsUnsent = 0; // no connection took them in time (a dropped one reconnects slowly)
    };

    // Throws std::invalid_argument, listing the known names, for an unknown one.
    static Kind kindFromName(const std::string& name);
    static std::string nameOf(Kind kind);

    // Throws std::invalid_argument when the codec's peer is not a member of the group.
    MisbehavingMember(collab::GroupSpec spec, const net::MessageCodec& codec,
                      const net::SocketFactory& sockets, Kind kind);

    // local: this member's vector (spec.vectorSize values), the source of the values it sends. Waits at
    // most `patience` in all for connections to take the parts.
    Outcome run(const std::vector<float>& local, std::chrono::milliseconds patience);

private:
    Outcome stall(const std::vector<float>& local, std::chrono::steady_clock::time_point until);
    std::vector<zmq::message_t> craftedPart(std::size_t aggregator, std::int64_t part,
                                            const std::vector<float>& local) const;

    collab::GroupSpec spec_;
    const net::MessageCodec& codec_;
    Kind kind_;
    int me_ = -1;
    collab::PartitionPlan plan_;
    std::map<std::size_t, zmq::socket_t> dealers_; // per aggregator
};

} // namespace sahaj::test
