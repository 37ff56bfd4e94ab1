#pragma once

#include "core/net/protocol.pb.h"

#include <zmq.hpp>

#include <atomic>
#include <cstdint>
#include <map>
#include <string>

namespace sahaj::dht {
class DhtNode;
}

namespace sahaj::net {
class MessageCodec;
}

namespace sahaj::test {

// A peer that claims to be the best leader of an epoch and then breaks its word, for the tests that check
// its followers still form their own group. It declares itself in the DHT with an expiration 1.5 s ahead,
// again every 500 ms, so that its declaration is always earlier than any honest leader's; it accepts every
// join request on its ROUTER; and then, by its Kind, it begins no group, or begins one every peer of the run
// would refuse to plan.
class HostileLeader {
public:
    enum class Kind {
        NeverBegins, // accepts members and never sends a GroupBegin
        TinyParts,   // a GroupBegin with parts of one value: a million parts for a vector of a million values
        Crowd,       // a GroupBegin listing its members and a thousand made-up peers to connect to
    };

    struct Plan {
        std::string schemaHash;
        wire::Encoding encoding;
        std::int64_t vectorSize = 0;
        std::int64_t partElements = 0;
    };

    // Throws std::invalid_argument, listing the known names, for an unknown one.
    static Kind kindFromName(const std::string& name);

    // router: bound, with the codec's peer id as its identity.
    HostileLeader(dht::DhtNode& dht, const net::MessageCodec& codec, zmq::socket_t& router, Kind kind,
                  Plan plan);

    // Leads falsely for `epoch` until `stop` is set.
    void run(std::uint64_t epoch, const std::atomic<bool>& stop);

private:
    void answer(std::uint64_t epoch, std::vector<wire::MemberInfo>& accepted);
    void begin(std::uint64_t epoch, const std::vector<wire::MemberInfo>& accepted);

    dht::DhtNode& dht_;
    const net::MessageCodec& codec_;
    zmq::socket_t& router_;
    Kind kind_;
    Plan plan_;
    std::map<std::string, std::string> routes_; // by member peer id: the connection its request came on
};

} // namespace sahaj::test
