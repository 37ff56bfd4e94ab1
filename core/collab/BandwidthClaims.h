#pragma once

#include "core/collab/GroupSpec.h"

#include <cstddef>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace sahaj::collab {

// What a leader believes of the bandwidths members claim. A claim is the member's own word (min of what it
// measured and its user's cap), so a peer could claim 10 Gbit/s over a 10 Mbit/s link and take a span it
// cannot move. The leader caps each other member's claim by what it saw that member deliver in recent
// rounds it aggregated (AllReduceResult::senderRates), with a margin for noise; a member it never timed is
// capped by the group's lower median claim, so one newcomer cannot outclaim the typical member before its
// transfers show what it can do. Owned by the collaboration thread.
class BandwidthClaims {
public:
    // Observed rates are lower bounds; an honest member's claim may exceed them by this much.
    static constexpr double kMargin = 1.5;
    static constexpr std::size_t kRememberedRates = 4; // per peer: the best of these is its cap
    static constexpr std::size_t kMaxPeers = 4096;     // bounded memory, whatever peers come and go

    void observe(const std::string& peerId, double valuesPerSecond);
    // The most `peerId`'s claim may be: kMargin × its best remembered rate; nullopt when never observed.
    std::optional<double> capOf(const std::string& peerId) const;
    // Caps every member's bandwidth but `self`'s (see above). Members with no bandwidth stay at 0.
    void cap(std::vector<GroupMember>& members, const std::string& self) const;

private:
    std::map<std::string, std::deque<double>> rates_;
    std::deque<std::string> order_; // first observed first: the one forgotten when kMaxPeers is reached
};

} // namespace sahaj::collab
