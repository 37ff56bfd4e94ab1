#pragma once

#include "core/collab/TrainingState.h"

#include <QString>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace sahaj::engine {

// What a malicious peer might send instead of its gradient, for testing a run's defences (the
// `--attack` option of `sahaj-node volunteer`): an honest peer never uses it. Both attacks are those of
// the robustness tests in the literature (BTARD): the gradient reversed and scaled by 1000, and a random
// direction with 1000 times the gradient's norm. The averaged vector's last slot (the loss) is attacked
// too, as a real attacker would. Two lie in the state rounds instead: one sends its LAMB second moments as
// -1e30 (finite, so that its own checks let it through, and impossible for an honest peer); the other
// puts a weight of 10^12 on parameters of its own making (every parameter 0.5), which would make them
// everyone's where the state rounds' weight of 1 were not enforced. Three lie about progress: two claim
// 10^12 samples (the most a record may carry) in their records, on joining and as their gradient's
// weight; of those, one looks for groups when its real batch is due, as honest peers do, so that its
// weight reaches their groups, and the other believes its own claim, so that it is always ready to step;
// the third publishes records two epochs ahead of its own. One lies as an aggregator: it sends each member
// of its group other averages of its span (the mean plus the member's index + 1 in every value), each under
// a valid seal of what that member got; another sends every member the same wrong averages (its mean
// reversed and kScale times larger), which every seal agrees with. One lies as a leader: it declares the
// shortest gather any peer could, so that it leads often, and gives each member of its groups another plan.
// One lies as a donor: it serves newcomers a state of its own making (every parameter 0.5, moments kept) that
// claims an epoch ahead of its own. A hostile volunteer may lie in several roles at once (AttackPlan).
class GradientAttack {
public:
    enum class Kind {
        None,
        Negate,
        Random,
        NegativeMoments,
        HeavyState,
        InflatedSamples,
        AlwaysReady,
        FutureEpoch,
        Equivocate,
        WrongMean,
        SplitPlans,
        FakeState
    };

    static constexpr double kScale = 1000.0;
    static constexpr double kHeavyStateWeight = 1e12;
    static constexpr std::uint64_t kInflatedSamples = 1'000'000'000'000;
    static constexpr std::uint64_t kFutureEpochLead = 2;

    // "none", "negate", "random", "negative-moments", "heavy-state", "inflated-samples", "always-ready",
    // "future-epoch", "equivocate", "wrong-mean", "split-plans" or "fake-state"; nullopt for anything else.
    static std::optional<Kind> fromName(const QString& name);
    // Every name fromName takes, for messages.
    static QString names();

    // Replaces `vector` in place. `seed` varies the random direction from epoch to epoch.
    static void apply(Kind kind, std::vector<float>& vector, std::uint64_t seed);
    // Replaces the state vector (parameters, first and second moments of `parameterCount` values each)
    // in place: only NegativeMoments and HeavyState change it.
    static void applyToState(Kind kind, std::vector<float>& state, std::int64_t parameterCount);
    // The weight the peer puts on its state parts: 1 as the protocol says, but for HeavyState.
    static double stateWeight(Kind kind) { return kind == Kind::HeavyState ? kHeavyStateWeight : 1.0; }
    // The samples the peer claims to have (records, joining, gradient weight): its own, but for
    // InflatedSamples and AlwaysReady (0: its own).
    static std::uint64_t claimedSamples(Kind kind) {
        return kind == Kind::InflatedSamples || kind == Kind::AlwaysReady ? kInflatedSamples : 0;
    }
    static std::uint64_t claimedSamples(Kind kind, std::uint64_t samples) {
        const std::uint64_t claim = claimedSamples(kind);
        return claim > 0 ? claim : samples;
    }
    // The samples the peer's own progress estimate counts: its own, but for AlwaysReady.
    static std::uint64_t believedSamples(Kind kind, std::uint64_t samples) {
        return kind == Kind::AlwaysReady ? kInflatedSamples : samples;
    }
    // FakeState: makes `state` the one this donor serves: every parameter 0.5, the epoch one ahead.
    static void forgeState(collab::TrainingState& state);
    // Equivocate: what this aggregator sends member `member` of a part of its span instead of the mean.
    static void alterReply(std::size_t member, float* values, std::int64_t count);
    // WrongMean: what this aggregator sends every member of a part of its span instead of the mean (the
    // mean reversed and kScale times larger), each under a valid seal: only an audit finds it.
    static void alterEveryReply(std::size_t member, float* values, std::int64_t count);
};

} // namespace sahaj::engine
