#pragma once

#include "core/collab/CenteredClip.h"
#include "core/collab/ElementRange.h"
#include "core/collab/GroupSpec.h"
#include "core/net/protocol.pb.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace zmq {
class message_t;
} // namespace zmq

namespace sahaj::collab {

// An auditor's check of one part of another member's span (docs/protocol.md, "Audited averages"). The
// span's aggregator shows the inputs its mean of that part is made of, each as its sender signed it; the
// audit recomputes the mean with the span reducer every aggregator uses, under the counted weights the
// aggregator sealed, and compares it with the mean this member received. Checks and arithmetic only:
// AllReduceRound asks, receives and acts on the verdict.
//
// What makes a lie provable: the seal and the averages are the aggregator's, signed or sent on its own
// connection; each input is its sender's, signed; the arithmetic is anyone's to redo. An honest aggregator
// counts each input for its sent weight, or for one cap common to all (WeightBounds::countedAtMost), and
// keeps every input its mean used: nothing it does fails the audit. What the audit cannot prove is
// withheld inputs (too few shown, or none in time): the auditor keeps its own values for the span then,
// and holds nothing against the aggregator.
class PartAudit {
public:
    // A recomputed mean further than this from the one received, in the Euclidean norm relative to the
    // larger of the two, is a lie. Honest differences are rounding: the sum's order (the aggregator adds
    // inputs as they come), and a value on an encoding's rounding edge; both far below 1 %.
    static constexpr double kTolerance = 1e-2;

    // The audit of part `part` (at `range` of the vector) of member `aggregator`'s span in `spec`, whose seal
    // counted each member's parts for `countedWeights` (-1: none). clip: the run's aggregation rule.
    PartAudit(std::string runId, const GroupSpec& spec, std::size_t aggregator, std::int64_t part,
              ElementRange range, std::vector<double> countedWeights,
              std::optional<CenteredClipOptions> clip);

    // One input the aggregator shows (an AuditedPart and its data frame). Returns the lie it proves (not
    // an input of this part, not signed by its sender, values its encoding cannot carry, a changing count
    // of inputs), or empty. A repeated input is ignored.
    std::string add(const wire::AuditedPart& shown, const zmq::message_t& data);
    // The part audited.
    std::int64_t part() const { return part_; }
    // Every input the aggregator said it would show has come.
    bool complete() const { return expected_ > 0 && shownCount() >= expected_; }

    struct Verdict {
        enum class Kind {
            Fits,     // the inputs give the mean received
            Unproven, // too few inputs to check, or a mean they make overflow: nothing is held against it
            Lie,      // the aggregator's own words contradict each other: `why` says how
        };
        Kind kind = Kind::Unproven;
        std::string why;
    };
    // Once complete: whether `received` (the part's mean as this member got it) is what the inputs give.
    Verdict judge(std::span<const float> received) const;

private:
    std::size_t shownCount() const;
    // Empty when the counted weights are what an honest aggregator counts: each input's sent weight, or
    // one cap below it common to every capped input.
    std::string weightProblem() const;

    std::string runId_;
    const GroupSpec& spec_;
    std::size_t aggregator_;
    std::int64_t part_;
    ElementRange range_;
    std::vector<double> counted_;
    std::optional<CenteredClipOptions> clip_;
    std::uint32_t expected_ = 0;
    // Per member: its input's values (empty: not shown) and the weight it signed.
    std::vector<std::vector<float>> inputs_;
    std::vector<double> sent_;
};

} // namespace sahaj::collab
