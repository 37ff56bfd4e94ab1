#pragma once

#include <QString>

#include <cstdint>
#include <optional>
#include <vector>

namespace sahaj::engine {

// What a malicious peer might send instead of its gradient, for testing a run's defences (the
// `--attack` option of `sahaj-node volunteer`): an honest peer never uses it. Both attacks are those of
// the robustness tests in the literature (BTARD): the gradient reversed and scaled by 1000, and a random
// direction with 1000 times the gradient's norm. The averaged vector's last slot (the loss) is attacked
// too, as a real attacker would. A third lies in the state rounds instead: its LAMB second moments sent as
// -1e30 (finite, so that its own checks let it through, and impossible for an honest peer).
class GradientAttack {
public:
    enum class Kind { None, Negate, Random, NegativeMoments };

    static constexpr double kScale = 1000.0;

    // "none", "negate", "random" or "negative-moments"; nullopt for anything else.
    static std::optional<Kind> fromName(const QString& name);

    // Replaces `vector` in place. `seed` varies the random direction from epoch to epoch.
    static void apply(Kind kind, std::vector<float>& vector, std::uint64_t seed);
    // Replaces the state vector (parameters, first and second moments of `parameterCount` values each)
    // in place: only NegativeMoments changes it.
    static void applyToState(Kind kind, std::vector<float>& state, std::int64_t parameterCount);
};

} // namespace sahaj::engine
