#include "core/collab/PartAudit.h"

#include "core/collab/PartSignatures.h"
#include "core/collab/SpanReducer.h"
#include "core/collab/TensorEncoding.h"
#include "core/net/LogText.h"

#include <zmq.hpp>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>

namespace sahaj::collab {

PartAudit::PartAudit(std::string runId, const GroupSpec& spec, std::size_t aggregator, std::int64_t part,
                     ElementRange range, std::vector<double> countedWeights,
                     std::optional<CenteredClipOptions> clip)
    : runId_(std::move(runId)), spec_(spec), aggregator_(aggregator), part_(part), range_(range),
      counted_(std::move(countedWeights)), clip_(std::move(clip)) {
    if (aggregator_ >= spec_.members.size() || counted_.size() != spec_.members.size())
        throw std::invalid_argument("an audit needs the span's member and one counted weight per member");
    inputs_.resize(spec_.members.size());
    sent_.assign(spec_.members.size(), 0.0);
}

std::size_t PartAudit::shownCount() const {
    return static_cast<std::size_t>(
        std::count_if(inputs_.begin(), inputs_.end(), [](const auto& values) { return !values.empty(); }));
}

std::string PartAudit::add(const wire::AuditedPart& shown, const zmq::message_t& data) {
    const wire::TensorPart& part = shown.part();
    const int member = spec_.indexOf(shown.sender());
    if (member < 0 || !spec_.members[static_cast<std::size_t>(member)].sends())
        return "showed an input from a peer that is not a member that sends";
    const auto s = static_cast<std::size_t>(member);
    if (part.group_id() != spec_.groupId || part.epoch() != spec_.epoch || part.span() != aggregator_ ||
        static_cast<std::int64_t>(part.part()) != part_ ||
        part.offset() != static_cast<std::uint64_t>(range_.offset) ||
        part.count() != static_cast<std::uint64_t>(range_.size))
        return "showed an input of another group, epoch, span or part";
    // Its own input is its values as it added them, exactly; every other, the values as they came.
    const wire::Encoding expected = s == aggregator_ ? TensorEncoding::fp32() : spec_.encoding;
    if (part.encoding().SerializeAsString() != expected.SerializeAsString())
        return "showed an input in another encoding than the one it came in";
    if (const std::string problem = PartSignatures::problemWith(runId_, shown.sender(), part, data);
        !problem.empty())
        return "showed an input of member " + net::LogText::shortHex(shown.sender()) + " that " + problem;
    if (expected_ != 0 && shown.inputs() != expected_)
        return "said it would show " + std::to_string(expected_) + " inputs, then " +
               std::to_string(shown.inputs());
    if (shown.inputs() > spec_.members.size())
        return "said it would show more inputs than the group has members";
    expected_ = shown.inputs();
    if (!inputs_[s].empty())
        return {};
    std::vector<float> values(static_cast<std::size_t>(range_.size));
    try {
        TensorEncoding::decode(data, range_.size, expected, values.data());
    } catch (const std::exception& e) {
        return std::string("showed an input its sender signed but no aggregator accepts: ") + e.what();
    }
    inputs_[s] = std::move(values);
    sent_[s] = part.weight();
    return {};
}

std::string PartAudit::weightProblem() const {
    std::optional<double> cap;
    for (std::size_t s = 0; s < inputs_.size(); ++s) {
        if (inputs_[s].empty())
            continue;
        const double counted = counted_[s];
        if (counted < 0.0 || counted > sent_[s])
            return "counted member " + net::LogText::shortHex(spec_.members[s].peerId) + "'s input for " +
                   std::to_string(counted) + ", its parts carry " + std::to_string(sent_[s]);
        if (counted == sent_[s])
            continue;
        if (cap && *cap != counted)
            return "capped its inputs' weights at two different values (" + std::to_string(*cap) + " and " +
                   std::to_string(counted) + ")";
        cap = counted;
    }
    if (cap)
        for (std::size_t s = 0; s < inputs_.size(); ++s)
            if (!inputs_[s].empty() && counted_[s] == sent_[s] && sent_[s] > *cap)
                return "capped weights at " + std::to_string(*cap) + " but counted member " +
                       net::LogText::shortHex(spec_.members[s].peerId) + "'s input for " +
                       std::to_string(sent_[s]);
    return {};
}

PartAudit::Verdict PartAudit::judge(std::span<const float> received) const {
    using Kind = Verdict::Kind;
    if (static_cast<std::int64_t>(received.size()) != range_.size)
        throw std::invalid_argument("the received mean is not the audited part's size");
    // An aggregator may leave silent senders out, not most of them: with the inputs of a minority, its
    // own would weigh as much as the rest together.
    const auto senders =
        static_cast<std::size_t>(std::count_if(spec_.members.begin(), spec_.members.end(),
                                               [](const GroupMember& member) { return member.sends(); }));
    const std::size_t shown = shownCount();
    if (!complete() || 2 * shown < senders)
        return {Kind::Unproven, "showed the inputs of " + std::to_string(shown) + " of the group's " +
                                    std::to_string(senders) + " senders: too few to check"};
    if (const std::string problem = weightProblem(); !problem.empty())
        return {Kind::Lie, problem};

    std::vector<bool> senderOf(spec_.members.size(), false);
    for (std::size_t s = 0; s < inputs_.size(); ++s)
        senderOf[s] = !inputs_[s].empty();
    SpanReducer reducer({range_.size}, senderOf, aggregator_, inputs_[aggregator_], clip_, spec_.encoding);
    for (std::size_t s = 0; s < inputs_.size(); ++s)
        if (senderOf[s])
            reducer.setWeight(s, counted_[s]);
    for (std::size_t s = 0; s < inputs_.size(); ++s)
        if (senderOf[s] && s != aggregator_)
            reducer.add(0, s, inputs_[s].data());
    const SpanReducer::Mean mean = reducer.finish(0);
    if (!mean.finite)
        return {Kind::Unproven, "its inputs' mean overflows"};

    double difference = 0.0;
    double ownNorm = 0.0;
    double theirNorm = 0.0;
    for (std::size_t i = 0; i < received.size(); ++i) {
        const double d = static_cast<double>(received[i]) - static_cast<double>(mean.values[i]);
        difference += d * d;
        ownNorm += static_cast<double>(mean.values[i]) * static_cast<double>(mean.values[i]);
        theirNorm += static_cast<double>(received[i]) * static_cast<double>(received[i]);
    }
    difference = std::sqrt(difference);
    const double scale = std::sqrt(std::max(ownNorm, theirNorm));
    if (difference <= kTolerance * scale)
        return {Kind::Fits, {}};
    return {Kind::Lie, "sent a mean of part " + std::to_string(part_) + " that its " + std::to_string(shown) +
                           " inputs do not give: off by " + std::to_string(100.0 * difference / scale) +
                           " % of its norm (at most " + std::to_string(100.0 * kTolerance) +
                           " % is rounding)"};
}

} // namespace sahaj::collab
