#include "core/collab/StateVote.h"

#include <algorithm>

namespace sahaj::collab {

std::optional<StateDigest> StateVote::choose(const std::vector<DonorDigest>& answers, std::string& why) {
    why.clear();
    if (answers.empty()) {
        why = "no donor said what it would serve";
        return std::nullopt;
    }
    // Each donor counts once, with its first answer.
    std::vector<std::string> seen;
    std::vector<std::pair<StateDigest, std::size_t>> backing;
    const StateDigest* coordinators = nullptr;
    for (const DonorDigest& answer : answers) {
        if (std::find(seen.begin(), seen.end(), answer.peerId) != seen.end())
            continue;
        seen.push_back(answer.peerId);
        if (answer.coordinator && !coordinators)
            coordinators = &answer.digest;
        const auto it = std::find_if(backing.begin(), backing.end(),
                                     [&](const auto& entry) { return entry.first == answer.digest; });
        if (it == backing.end())
            backing.emplace_back(answer.digest, 1);
        else
            ++it->second;
    }
    for (const auto& [digest, backers] : backing)
        if (2 * backers > seen.size())
            return digest;
    if (coordinators)
        return *coordinators;
    if (seen.size() == 1)
        return backing.front().first;
    why = std::to_string(seen.size()) + " donors offer " + std::to_string(backing.size()) +
          " different states, none of them by a majority or the coordinator";
    return std::nullopt;
}

} // namespace sahaj::collab
