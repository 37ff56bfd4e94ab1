#include "core/collab/RoundStartQuorum.h"

namespace sahaj::collab {

std::size_t RoundStartQuorum::begunOthers(const GroupSpec& group, const std::string& self,
                                          const std::set<std::string>& begun) {
    std::size_t count = 0;
    for (const GroupMember& member : group.members)
        count += member.peerId != self && begun.count(member.peerId) ? 1 : 0;
    return count;
}

bool RoundStartQuorum::reached(const GroupSpec& group, const std::string& self,
                               const std::set<std::string>& begun) {
    const std::size_t others = group.members.size() - (group.indexOf(self) >= 0 ? 1 : 0);
    return others > 0 && 2 * begunOthers(group, self, begun) > others;
}

} // namespace sahaj::collab
