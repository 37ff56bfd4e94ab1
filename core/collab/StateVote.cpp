#include "core/collab/StateVote.h"

#include <algorithm>
#include <map>

namespace sahaj::collab {

namespace {

// Each donor's first answer.
std::vector<const DonorDigest*> firstAnswers(const std::vector<DonorDigest>& answers) {
    std::vector<const DonorDigest*> first;
    for (const DonorDigest& answer : answers)
        if (std::none_of(first.begin(), first.end(),
                         [&](const DonorDigest* seen) { return seen->peerId == answer.peerId; }))
            first.push_back(&answer);
    return first;
}

// The answers' distinct digests and how many donors give each, every donor counted once (its first
// answer); `donors` is how many donors that is, and `coordinator` the coordinator's digest, if it answered.
struct Tally {
    std::vector<std::pair<StateDigest, std::size_t>> backing;
    std::size_t donors = 0;
    const StateDigest* coordinator = nullptr;
};

Tally tally(const std::vector<DonorDigest>& answers) {
    Tally result;
    const std::vector<const DonorDigest*> first = firstAnswers(answers);
    for (const DonorDigest* answer : first) {
        if (answer->coordinator && !result.coordinator)
            result.coordinator = &answer->digest;
        const auto it = std::find_if(result.backing.begin(), result.backing.end(),
                                     [&](const auto& entry) { return entry.first == answer->digest; });
        if (it == result.backing.end())
            result.backing.emplace_back(answer->digest, 1);
        else
            ++it->second;
    }
    result.donors = first.size();
    return result;
}

std::optional<StateDigest> majorityOf(const Tally& counted, std::size_t donors) {
    for (const auto& [digest, backers] : counted.backing)
        if (2 * backers > donors)
            return digest;
    return std::nullopt;
}

} // namespace

std::optional<StateDigest> StateVote::majority(const std::vector<DonorDigest>& answers, std::size_t donors) {
    return majorityOf(tally(answers), donors);
}

std::optional<StateDigest> StateVote::choose(const std::vector<DonorDigest>& answers, std::string& why) {
    why.clear();
    const Tally counted = tally(answers);
    if (counted.donors == 0) {
        why = "no donor said what it would serve";
        return std::nullopt;
    }
    if (std::optional<StateDigest> digest = majorityOf(counted, counted.donors))
        return digest;
    if (counted.coordinator)
        return *counted.coordinator;
    if (counted.donors == 1)
        return counted.backing.front().first;
    why = std::to_string(counted.donors) + " donors offer " + std::to_string(counted.backing.size()) +
          " different states, none of them by a majority or the coordinator";
    return std::nullopt;
}

std::optional<std::uint64_t> StateVote::medianEpoch(const std::vector<DonorDigest>& answers,
                                                    std::string& why) {
    why.clear();
    std::map<std::uint64_t, std::size_t> donorsAt;
    for (const DonorDigest* answer : firstAnswers(answers))
        ++donorsAt[answer->digest.epoch];
    std::optional<std::uint64_t> epoch;
    std::size_t most = 0;
    for (const auto& [at, donors] : donorsAt) // ascending: a tie goes to the newer epoch
        if (donors >= most) {
            most = donors;
            epoch = at;
        }
    if (most < kMedianOf) {
        why = "at most " + std::to_string(most) + " donor(s) offer a state of one epoch, fewer than the " +
              std::to_string(kMedianOf) + " a median needs";
        return std::nullopt;
    }
    return epoch;
}

} // namespace sahaj::collab
