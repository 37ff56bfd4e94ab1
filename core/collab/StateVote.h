#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace sahaj::collab {

// What a donor says it would serve (a wire::StateDigest).
struct StateDigest {
    std::uint64_t epoch = 0;
    std::string sha256; // 32 bytes
    std::uint64_t size = 0;

    bool operator==(const StateDigest&) const = default;
};

// One donor's answer to a newcomer's StateDigestRequest.
struct DonorDigest {
    std::string peerId;
    bool coordinator = false; // its access token has the coordinator role (the organiser's word)
    StateDigest digest;
};

// Which state a newcomer may download, from what the donors say they would serve (docs/protocol.md,
// "State snapshots and their transfer"). A donor's state and epoch are its own claims: a liar serving a
// self-consistent state of its own making, at an epoch ahead of everyone's, would otherwise be the first
// donor asked, and every peer that loaded it would pass it on. Members of one group hold the same state byte
// for byte after a round, so honest donors agree:
//  - a digest more than half of the answering donors give is taken;
//  - else the coordinator's (its role is in its token, signed by the organiser);
//  - else, when a single donor answered, its digest: there is nobody to compare it with;
//  - else nothing: the donors disagree and none can be believed over the others.
// Never the newest epoch for being the newest.
class StateVote {
public:
    // The digest to download, or nullopt with `why` saying what the donors disagreed on.
    static std::optional<StateDigest> choose(const std::vector<DonorDigest>& answers, std::string& why);
    // The digest more than half of `donors` give in `answers` (each donor counted once), if any: once
    // one holds that for all the donors asked, no later answer can change the choice.
    static std::optional<StateDigest> majority(const std::vector<DonorDigest>& answers, std::size_t donors);
};

} // namespace sahaj::collab
