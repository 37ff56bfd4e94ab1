// Fuzz target: a message as a peer receives it (MessageCodec::decode: frame checks, envelope parse, run,
// sender and MessageValidator), and a GroupBegin that passes on through GroupSpec::fromWire to the
// partition plan every member computes from it. The input is split into frames by WireFuzzInput.
#include "core/collab/GroupSpec.h"
#include "core/collab/PartitionPlan.h"
#include "core/net/MessageCodec.h"
#include "core/net/ProtocolViolation.h"
#include "fuzz/InputVerdict.h"
#include "fuzz/WireFuzzInput.h"

#include <cstdint>
#include <cstdlib>
#include <string>

using sahaj::collab::GroupSpec;
using sahaj::collab::PartitionPlan;
using sahaj::fuzz::InputVerdict;
using sahaj::fuzz::WireFuzzInput;
using sahaj::net::MessageCodec;
using sahaj::net::ProtocolViolation;

namespace {

// A validated GroupBegin is trusted from here on: every member builds the same partition plan from it.
// The plan's constructor throws for counts that do not tile the vector; an exception escaping here is a
// GroupBegin the validator let through although no plan can be made from it.
void useGroup(const sahaj::wire::GroupBegin& begin, const std::string& sender) {
    const GroupSpec spec = GroupSpec::fromWire(begin);
    if (spec.members.size() != spec.spanCounts.size())
        std::abort();
    const PartitionPlan plan(spec.spanCounts, spec.vectorSize, spec.partElements);
    if (plan.memberCount() != static_cast<std::int64_t>(spec.members.size()))
        std::abort();
    spec.indexOf(sender);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    // This peer's own id never appears in a check of incoming messages; any 32 bytes do.
    static const MessageCodec codec(WireFuzzInput::kRunId, std::string(32, '\x01'));
    try {
        const sahaj::net::WireMessage message = codec.decode(WireFuzzInput::split(data, size));
        InputVerdict::accepted();
        if (message.envelope.has_group_begin())
            useGroup(message.envelope.group_begin(), message.envelope.sender());
    } catch (const ProtocolViolation& e) {
        InputVerdict::refused(e);
    }
    return 0;
}
