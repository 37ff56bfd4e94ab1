#pragma once

#include "core/collab/StateDownloader.h"

#include <chrono>
#include <map>
#include <string>
#include <vector>

namespace sahaj::collab {

// Which state donors failed this peer lately, so that its next download tries the others first. A donor
// that left without its departure reaching everyone stays on the board until its record expires; without
// this, every attempt would spend a whole chunk timeout on it before reaching one that answers.
class DonorHistory {
public:
    using Clock = std::chrono::steady_clock;

    // How long a failure counts: about as long as a departed peer's record lingers.
    static constexpr std::chrono::seconds kMemory{90};

    void failed(const std::string& peerId, Clock::time_point when);
    void failed(const std::vector<DonorFailure>& failures, Clock::time_point when);

    // The donors in their given order (best first), except that those that failed within kMemory go
    // last, the longest ago first, marked failedLately. Never drops one: a donor that failed may be the only
    // one left.
    std::vector<StateDonor> order(std::vector<StateDonor> donors, Clock::time_point now);

private:
    std::map<std::string, Clock::time_point> failedAt_;
};

} // namespace sahaj::collab
