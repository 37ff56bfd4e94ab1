#include "core/collab/GroupPlanner.h"

#include "core/collab/LoadBalancer.h"
#include "core/net/WireLimits.h"

#include <QRandomGenerator>

#include <algorithm>
#include <stdexcept>

namespace sahaj::collab {

GroupSpec GroupPlanner::plan(std::vector<GroupMember> members, std::uint64_t epoch,
                             const wire::Encoding& encoding, std::int64_t vectorSize,
                             std::int64_t partElements) {
    if (members.empty())
        throw std::invalid_argument("a group needs at least one member");
    std::sort(members.begin(), members.end(),
              [](const GroupMember& a, const GroupMember& b) { return a.peerId < b.peerId; });
    for (std::size_t i = 1; i < members.size(); ++i)
        if (members[i].peerId == members[i - 1].peerId)
            throw std::invalid_argument("a peer cannot be a member of a group twice");

    GroupSpec spec;
    std::string groupId(net::WireLimits::kGroupIdBytes, '\0');
    QRandomGenerator::system()->generate(groupId.begin(), groupId.end());
    spec.groupId = std::move(groupId);
    spec.epoch = epoch;
    spec.encoding = encoding;
    spec.vectorSize = vectorSize;
    spec.partElements = partElements;
    if (members.size() == 1) {
        spec.spanCounts = {vectorSize};
    } else {
        std::vector<MemberBandwidth> bandwidths;
        for (const GroupMember& member : members)
            bandwidths.push_back({member.bandwidth, member.role != wire::ROLE_CLIENT});
        spec.spanCounts = LoadBalancer::apportion(LoadBalancer::solve(bandwidths).shares, vectorSize);
    }
    spec.members = std::move(members);
    return spec;
}

} // namespace sahaj::collab
