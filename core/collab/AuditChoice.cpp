#include "core/collab/AuditChoice.h"

#include <algorithm>

namespace sahaj::collab {

std::vector<std::string> AuditChoice::pick(const GroupSpec& spec, const std::string& self,
                                           const std::vector<std::string>& excluded, std::size_t count,
                                           std::mt19937_64& random) {
    std::vector<std::string> candidates;
    for (std::size_t m = 0; m < spec.members.size(); ++m) {
        const std::string& peerId = spec.members[m].peerId;
        if (m < spec.spanCounts.size() && spec.spanCounts[m] > 0 && peerId != self &&
            std::find(excluded.begin(), excluded.end(), peerId) == excluded.end())
            candidates.push_back(peerId);
    }
    std::shuffle(candidates.begin(), candidates.end(), random);
    candidates.resize(std::min(count, candidates.size()));
    return candidates;
}

} // namespace sahaj::collab
