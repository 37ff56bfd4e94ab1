#include "core/collab/GroupSpec.h"

namespace sahaj::collab {

int GroupSpec::indexOf(const std::string& peerId) const {
    for (std::size_t i = 0; i < members.size(); ++i)
        if (members[i].peerId == peerId)
            return static_cast<int>(i);
    return -1;
}

GroupSpec GroupSpec::fromWire(const wire::GroupBegin& begin) {
    GroupSpec spec;
    spec.groupId = begin.group_id();
    spec.epoch = begin.epoch();
    for (const wire::MemberInfo& m : begin.members())
        spec.members.push_back(
            {m.peer_id(), m.role(), m.endpoint(), m.bandwidth(), m.weight(), m.token(), {}});
    spec.spanCounts.assign(begin.span_counts().begin(), begin.span_counts().end());
    spec.encoding = begin.encoding();
    spec.vectorSize = static_cast<std::int64_t>(begin.vector_size());
    spec.partElements = begin.part_elements();
    return spec;
}

wire::GroupBegin GroupSpec::toWire() const {
    wire::GroupBegin begin;
    begin.set_group_id(groupId);
    begin.set_epoch(epoch);
    for (const GroupMember& m : members) {
        wire::MemberInfo* info = begin.add_members();
        info->set_peer_id(m.peerId);
        info->set_role(m.role);
        info->set_endpoint(m.endpoint);
        info->set_bandwidth(m.bandwidth);
        info->set_weight(m.weight);
        info->set_token(m.token);
    }
    for (const std::int64_t count : spanCounts)
        begin.add_span_counts(static_cast<std::uint64_t>(count));
    *begin.mutable_encoding() = encoding;
    begin.set_vector_size(static_cast<std::uint64_t>(vectorSize));
    begin.set_part_elements(static_cast<std::uint32_t>(partElements));
    return begin;
}

} // namespace sahaj::collab
