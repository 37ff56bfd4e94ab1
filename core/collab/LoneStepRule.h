#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <utility>

namespace sahaj::collab {

// Whether a peer whose batch is full and whose matchmaking found nobody steps alone now, or looks for a
// group again (docs/collaboration.md, "What keeps the replicas equal"). Stepping alone parts it from every
// peer that will average this epoch: its parameters are its own from then on, until a state averaging. So
// while other peers' live records show them at its epoch (about to look too) or one epoch behind (finishing
// the step that brings them here), it looks again, for at most `patience` from the first time it found itself
// alone at that epoch; then it steps alone rather than not at all, since records may outlive their peers,
// or lie. Seen without the peers behind: a volunteer whose round ended early (it streamed alone while the
// others' round ran on) stepped alone at the next epoch, found nobody at the one after, and from then on
// stepped alone every two seconds, forty epochs ahead of the three others, who then loaded its state.
class LoneStepRule {
public:
    using Clock = std::chrono::steady_clock;

    explicit LoneStepRule(std::chrono::milliseconds patience) : patience_(patience) {}

    struct Decision {
        bool stepAlone = true;
        bool firstWait = false; // the first time it looks again at this epoch (to say why, once)
    };

    // `othersAt` and `othersBehind`: how many other peers' live records are at `epoch` and at `epoch - 1`.
    Decision decide(std::uint64_t epoch, std::size_t othersAt, std::size_t othersBehind,
                    Clock::time_point now);

    // A group of two or more formed: the next time alone waits its full patience again.
    void reset() { aloneSince_.reset(); }

private:
    std::chrono::milliseconds patience_;
    std::optional<std::pair<std::uint64_t, Clock::time_point>> aloneSince_; // epoch, first found alone
};

} // namespace sahaj::collab
