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
//  - else the elementwise median of three donors' states at the epoch most donors are at (medianEpoch):
//    honest states differ once rounds end incomplete (a member missing a part steps with its own gradient
//    there) or groups split, until parameters are averaged again; a newcomer that then loaded nothing
//    could not join at all. Each of the three is checked against its own donor's digest; a lie moves the
//    median only as far as an honest value on each side of it, unless two of the three lie together, and
//    the three are drawn at random, so a liar's claims (epoch, bandwidth) do not make it one of them;
//  - else nothing.
// Never the newest epoch for being the newest.
class StateVote {
public:
    // The states a median is taken of.
    static constexpr std::size_t kMedianOf = 3;

    // The digest to download, or nullopt with `why` saying what the donors disagreed on.
    static std::optional<StateDigest> choose(const std::vector<DonorDigest>& answers, std::string& why);
    // The digest more than half of `donors` give in `answers` (each donor counted once), if any: once
    // one holds that for all the donors asked, no later answer can change the choice.
    static std::optional<StateDigest> majority(const std::vector<DonorDigest>& answers, std::size_t donors);
    // When choose() finds nothing: the epoch that the most donors (each counted once) offer a state of, the
    // newest of those tied, provided at least kMedianOf donors offer it; nullopt with `why` otherwise.
    static std::optional<std::uint64_t> medianEpoch(const std::vector<DonorDigest>& answers,
                                                    std::string& why);
};

} // namespace sahaj::collab
