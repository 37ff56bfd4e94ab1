#pragma once

#include "core/collab/CenteredClip.h"
#include "core/net/protocol.pb.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace sahaj::collab {

// What one aggregator makes of its span in a round (the span reducer of hivemind's partition.py): per
// part, the senders' values weighted by the weights they count for and summed (with CenteredClip: kept,
// and clipped at the part's end), which senders contributed, and, once every sender still counted has,
// the part's mean exactly as the wire carries it. Arithmetic and bookkeeping only: AllReduceRound
// receives and checks the parts, decides whom to leave out, and replies.
//
// A part's sum is made when first needed, with this member's own values in it: made all at the round's
// start, the sums' page faults alone held up the first sends.
class SpanReducer {
public:
    // partSizes: the span's parts, one after another (PartitionPlan). senders: per member of the group,
    // whether it sends parts. own: this member's index; ownValues: its values for the whole span (empty
    // when it sends none), which must outlive the reducer's parts. clip: CenteredClip instead of the mean.
    // encoding: what the means are rounded through. Throws std::invalid_argument when ownValues is
    // neither empty nor the span's size, or own is not a member.
    SpanReducer(std::vector<std::int64_t> partSizes, std::vector<bool> senders, std::size_t own,
                std::span<const float> ownValues, std::optional<CenteredClipOptions> clip,
                wire::Encoding encoding);

    std::size_t partCount() const { return parts_.size(); }

    // The weight a sender's parts count for (the sender's own counts in each part from the start: set it
    // before the first part is made). -1 until set.
    void setWeight(std::size_t member, double counted) { weights_[member] = counted; }
    const std::vector<double>& weights() const { return weights_; }

    // Leaves a sender out: the parts go ahead without it. False if it was already.
    bool exclude(std::size_t member);
    bool excluded(std::size_t member) const { return excluded_[member]; }

    bool arrived(std::size_t p, std::size_t member) const { return parts_[p].arrived[member]; }
    bool done(std::size_t p) const { return parts_[p].done; }
    bool allDone() const;
    // Whether a part not yet done still waits for this member.
    bool owes(std::size_t member) const;
    // Adds a sender's values (part p's size of them) to part p, weighted; counts its weight and that it came.
    // Nothing if the part is done or the sender's values for it came already.
    void add(std::size_t p, std::size_t member, const float* values);
    // The parts not yet done whose every sender still counted has contributed, in order.
    std::vector<std::size_t> completeParts() const;

    struct Mean {
        std::span<const float> values; // the part's mean as sent (valid until the next change)
        double weight = 0.0;           // the weights that went into it
        std::uint32_t contributors = 0;
        bool finite = true; // false: the mean overflowed (finite values times large weights)
    };
    // Ends part p: the weighted mean of what came (CenteredClip's aggregate; zeros when nothing weighed
    // anything), rounded through the encoding, so that what this member keeps of its own span is bit for
    // bit what the others decode.
    Mean finish(std::size_t p);
    // A done part's mean (empty once taken or dropped).
    std::span<const float> mean(std::size_t p) const { return parts_[p].sum; }
    // Moves a done part's mean out.
    std::vector<float> takeMean(std::size_t p) { return std::move(parts_[p].sum); }
    // Gives every part up (the span failed): all done, nothing kept.
    void dropAll();

private:
    struct Part {
        std::vector<float> sum;
        bool started = false;
        std::vector<std::vector<float>> inputs; // per member, CenteredClip only
        double weight = 0.0;
        std::vector<bool> arrived; // per member
        std::uint32_t contributors = 0;
        bool done = false;
    };

    Part& started(std::size_t p);
    void count(Part& part, std::size_t member);
    void accumulate(Part& part, std::size_t member, const float* values);

    std::vector<std::int64_t> sizes_;
    std::vector<std::int64_t> offsets_; // of each part in the span
    std::vector<bool> senders_;
    std::size_t own_;
    std::span<const float> ownValues_;
    std::optional<CenteredClipOptions> clip_;
    wire::Encoding encoding_;
    std::vector<double> weights_;
    std::vector<bool> excluded_;
    std::vector<Part> parts_;
};

} // namespace sahaj::collab
