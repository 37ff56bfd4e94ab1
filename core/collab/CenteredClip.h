#pragma once

#include <cstddef>
#include <vector>

namespace sahaj::collab {

struct CenteredClipOptions {
    // The clipping radius τ, in the units of the values; 0 chooses it from the inputs: tauFactor × the
    // median over senders of ‖x_i − median‖₂, which scales with the gradients, so one setting serves every
    // model and every stage of training.
    double tau = 0.0;
    double tauFactor = 1.0;
    // 0 returns the coordinate-wise median itself.
    int maxIterations = 20;
    // Stop once a step moves the estimate by at most tolerance × its norm (0: run every iteration).
    double tolerance = 1e-6;

    static constexpr int kMaxIterations = 1000;
};

struct CenteredClipResult {
    std::vector<float> values; // `count` values
    int iterations = 0;        // clipping steps taken
    double tau = 0.0;          // the radius used (the automatic one when options.tau is 0)
    int clipped = 0;           // senders farther than tau from the estimate in the last step
};

// Robust aggregation of one part of a span (BTARD: Gorbunov et al. 2021, "Secure Distributed Training at
// Scale"), an alternative to the weighted mean for aggregators that must not trust every sender.
//
// Starting from the coordinate-wise median m of the senders' vectors x_i, it iterates
//
//     v ← v + Σ_i w_i·(x_i − v)·min(1, τ/‖x_i − v‖₂) / Σ_i w_i
//
// A sender within τ of v pulls like in the weighted mean; one farther away pulls with length τ at most,
// whatever it sent, so a few senders cannot drag v far however large their vectors are. When every sender
// is within τ of the weighted mean, that mean is the fixed point and the first step lands on it.
//
// What a minority can still do: in high dimensions honest vectors are nearly orthogonal around their mean
// at a common distance r, and k attackers pulling the same way against h honest senders of equal weight
// hold v at a distance ≈ r·(k/h)/√(1 − (k/h)²) from the honest mean (0.35·r for 2 against 6), for any
// τ ≤ r; a larger τ only lets them pull harder (≈ k·τ/h). The automatic τ stays a little above r: while
// fewer than half the senders attack, the median distance is an honest sender's distance from the median.
//
// Weights are the senders' sample counts, as in the mean. A sender of weight 0 takes no part at all, not
// even in the median and the automatic τ (all weights 0: the median of everyone). Weights are claims: a
// sender claiming most of the total weight still dominates, which is why the round bounds them.
//
// Pure and deterministic: the same inputs give bit-identical results. The sums run in double.
class CenteredClip {
public:
    // `inputs`: one pointer per sender to `count` finite values; `weights`: one finite weight >= 0 per
    // sender. Throws std::invalid_argument naming the problem: bad options, no senders, lengths that
    // differ, a null input, a negative or non-finite weight, a non-finite value (with sender and index).
    static CenteredClipResult aggregate(const std::vector<const float*>& inputs,
                                        const std::vector<double>& weights, std::size_t count,
                                        const CenteredClipOptions& options);

    // Throws std::invalid_argument with a message naming the option and the allowed range.
    static void validate(const CenteredClipOptions& options);
};

} // namespace sahaj::collab
