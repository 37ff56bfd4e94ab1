#pragma once

#include "core/collab/ElementRange.h"
#include "core/collab/PartitionPlan.h"
#include "core/net/protocol.pb.h"

#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <vector>

namespace zmq {
class message_t;
} // namespace zmq

namespace sahaj::collab {

// A member's side of one all-reduce round (the sender container of hivemind's partition.py, beside the
// aggregator's SpanReducer): its vector, the parts of it still owed to each other aggregator, and each
// aggregator's averages as they come back, kept apart until the whole span is in and taken. Arithmetic and
// bookkeeping only: AllReduceRound encodes, sends and receives, checks what arrives against the plan and
// the seals, and decides when a span fails.
//
// A span's averages go into a buffer of their own until the span is taken: the vector's values must stay
// for a span that fails half way, and for this member's parts of it not yet sent.
class PartContainer {
public:
    // plan: the round's, which must outlive the container (AllReduceRound's state holds both). vector: this
    // member's values (plan.totalElements() of them), or empty for a member that sends nothing (an
    // auxiliary). me: its index; its own span is not sent (its SpanReducer holds it). Throws
    // std::invalid_argument when the vector is neither empty nor the plan's size, or me is not in the plan.
    PartContainer(const PartitionPlan& plan, wire::Encoding encoding, std::size_t me,
                  std::vector<float> vector);

    std::size_t members() const { return failed_.size(); }
    bool sends() const { return !vector_.empty(); }
    // The aggregators this member sends to and receives averages from: every other member with a span,
    // when it sends.
    const std::vector<std::size_t>& aggregators() const { return aggregators_; }

    // The vector, whose own span the caller fills with its means once they are done.
    std::span<float> values() { return vector_; }
    std::span<const float> values(const ElementRange& range) const;
    // Once the round is over: the vector, with every span taken holding its averages.
    std::vector<float> takeValues() { return std::move(vector_); }

    // Outgoing: the next part owed to `aggregator`, in order; none when all are sent or the span failed.
    std::optional<std::int64_t> nextPart(std::size_t aggregator) const;
    // That part went out.
    void sent(std::size_t aggregator);
    // The rest of this member's parts for `aggregator` will not be sent (its span is whole, or failed).
    void stopSending(std::size_t aggregator) { owed_[aggregator].clear(); }

    // Incoming: whether part p of `aggregator`'s span is still awaited: not yet arrived, the span neither
    // whole nor failed (a repeated average is no progress). False for a part outside the plan.
    bool awaits(std::size_t aggregator, std::int64_t p) const;
    // Decodes the averages of an awaited part into the span's buffer and returns them (valid until the span
    // is taken or fails). Throws std::logic_error when the part is not awaited, and what
    // TensorEncoding::decode throws for data of the wrong size or with non-finite values.
    std::span<const float> place(std::size_t aggregator, std::int64_t p, const zmq::message_t& data);
    // Counts a placed part as received (once the caller found its values acceptable); true when that made
    // the span whole, which also ends this member's sending to it (whatever is unsent would be ignored).
    bool received(std::size_t aggregator, std::int64_t p);
    bool whole(std::size_t aggregator) const { return whole_[aggregator]; }
    // Part p of a whole span's averages as received, before the span is taken (an audit compares them).
    // Throws std::logic_error when the span is not whole.
    std::span<const float> averaged(std::size_t aggregator, std::int64_t p) const;
    // The SHA-256 of a whole span's values as received (SpanSeals::addValues), for its seal to match.
    std::string digest(std::size_t aggregator) const;
    // Copies a whole span's averages into the vector.
    void take(std::size_t aggregator);
    bool taken(std::size_t aggregator) const { return taken_[aggregator]; }

    // Gives `aggregator`'s span up: its parts are no longer sent, its averages are dropped, and the vector
    // keeps this member's values there. Any member may be given up (a banned one before the round).
    void fail(std::size_t aggregator);
    bool failed(std::size_t aggregator) const { return failed_[aggregator]; }

    // Whether this member still has parts to send, or averages to wait for, from an aggregator it has not
    // given up.
    bool outstanding() const;

private:
    void checkMember(std::size_t aggregator) const;
    // Throws std::logic_error unless `aggregator`'s span is whole (its averages all in, not yet taken).
    void checkWhole(std::size_t aggregator) const;
    // Where part p of `aggregator`'s span lies in its buffer of averages (which must exist).
    std::span<float> slotOf(std::size_t aggregator, std::int64_t p) const;

    const PartitionPlan& plan_;
    wire::Encoding encoding_;
    std::size_t me_;
    std::vector<float> vector_;
    std::vector<std::size_t> aggregators_;
    // Per member (as an aggregator of this member's parts).
    std::vector<std::deque<std::int64_t>> owed_;
    std::vector<std::unique_ptr<float[]>> averaged_;
    std::vector<std::set<std::int64_t>> arrived_;
    std::vector<bool> whole_;
    std::vector<bool> taken_;
    std::vector<bool> failed_;
};

} // namespace sahaj::collab
