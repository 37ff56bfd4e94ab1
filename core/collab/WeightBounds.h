#pragma once

#include "core/collab/GroupSpec.h"
#include "core/collab/PeerProgress.h"
#include "core/dht/RecordRules.h"

#include <chrono>
#include <vector>

namespace sahaj::collab {

// The most averaging weight each member of a group may put on its parts: its samples, as it reported them
// in its signed progress record for the group's epoch or as it declared them on joining, whichever is
// larger, extrapolated at the rate of its newest record (of any epoch) to now plus kSlack of training
// while the round got going, with head-room for the records' lag. Its rate counts as at least the lower
// median of the members' reported rates, and its declaration as at least the lower median of the members'
// declarations above 0 (a newcomer's first record shows no rate, and in a run's first round nobody's may).
// With no rate at all, neither its own nor a typical one, there is no bound (+infinity): held to its
// declaration, an honest peer training 400 samples/s was banned in a run's first round for the 1,488 samples
// it handed over after declaring 280 (bound 816). A part above it is a violation
// (AllReduceOptions::maxWeights): no member can buy more say in the mean than the samples it told everyone it
// has.
//
// Within that, a member's parts count in the mean for at most kShareFactor × the lower median of the
// members' samples as their records (or declarations) put them now, without the slack (those that
// reported any): countedAtMost. Its own words cannot bound a liar
// that claims 10^12 samples in its record, its declaration and its parts alike, so the group's median
// does. A part above it is not a violation (a fast honest peer may be there); its weight is counted as
// the cap (AllReduceOptions::weightCaps). Every member's gradient estimates the same mean, so weighting
// a fast one less costs a little variance, never bias.
class WeightBounds {
public:
    static constexpr std::chrono::seconds kSlack{30};
    static constexpr double kFactor = 2.0;
    static constexpr double kHeadroom = 256.0; // samples: a few micro-batches for a peer that just began
    // The longest a record is extrapolated: as long as a record lives in the DHT. One measured a day
    // before (a paused peer's, or a liar's) must not grant its rate times a day.
    static constexpr std::chrono::seconds kMaxExtrapolation = dht::RecordRules::kMaxTtl;

    static constexpr double kShareFactor = 2.0;

    static std::vector<double> of(const GroupSpec& spec, const std::vector<PeerProgress>& records,
                                  std::chrono::system_clock::time_point now);
    // Per member, the most weight counted for its parts (+infinity when no member reported samples).
    static std::vector<double> countedAtMost(const GroupSpec& spec, const std::vector<PeerProgress>& records,
                                             std::chrono::system_clock::time_point now);

private:
    // What the bound grants every member at least: the members' typical declaration and rate (see above);
    // the estimate grants nothing (zeros).
    struct Floor {
        double weight = 0.0;
        double rate = 0.0;
    };
    static Floor typicalOf(const GroupSpec& spec, const std::vector<PeerProgress>& records);
    // Per member, the samples it reported or declared (at least floor.weight), extrapolated as above at its
    // rate (at least floor.rate) to now plus `slack`.
    static std::vector<double> reported(const GroupSpec& spec, const std::vector<PeerProgress>& records,
                                        std::chrono::system_clock::time_point now, std::chrono::seconds slack,
                                        Floor floor);
};

} // namespace sahaj::collab
