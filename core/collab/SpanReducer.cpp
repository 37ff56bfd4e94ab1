#include "core/collab/SpanReducer.h"

#include "core/collab/TensorEncoding.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <utility>

namespace sahaj::collab {

SpanReducer::SpanReducer(std::vector<std::int64_t> partSizes, std::vector<bool> senders, std::size_t own,
                         std::span<const float> ownValues, std::optional<CenteredClipOptions> clip,
                         wire::Encoding encoding)
    : sizes_(std::move(partSizes)), senders_(std::move(senders)), own_(own), ownValues_(ownValues),
      clip_(std::move(clip)), encoding_(std::move(encoding)) {
    const std::size_t members = senders_.size();
    if (own_ >= members)
        throw std::invalid_argument("the span reducer's own member is not in the group");
    std::int64_t offset = 0;
    for (const std::int64_t size : sizes_) {
        offsets_.push_back(offset);
        offset += size;
    }
    if (!ownValues_.empty() && static_cast<std::int64_t>(ownValues_.size()) != offset)
        throw std::invalid_argument("the span reducer's own values are not the span's size");
    weights_.assign(members, -1.0);
    excluded_.assign(members, false);
    parts_.resize(sizes_.size());
    for (Part& part : parts_)
        part.arrived.assign(members, false);
}

bool SpanReducer::exclude(std::size_t member) {
    if (excluded_[member])
        return false;
    excluded_[member] = true;
    return true;
}

bool SpanReducer::allDone() const {
    return std::all_of(parts_.begin(), parts_.end(), [](const Part& part) { return part.done; });
}

bool SpanReducer::owes(std::size_t member) const {
    return std::any_of(parts_.begin(), parts_.end(),
                       [&](const Part& part) { return !part.done && !part.arrived[member]; });
}

SpanReducer::Part& SpanReducer::started(std::size_t p) {
    Part& part = parts_[p];
    if (!part.started) {
        part.started = true;
        part.sum.assign(static_cast<std::size_t>(sizes_[p]), 0.0f);
        if (senders_[own_] && !ownValues_.empty()) {
            accumulate(part, own_, ownValues_.data() + offsets_[p]);
            count(part, own_);
        }
    }
    return part;
}

void SpanReducer::count(Part& part, std::size_t member) {
    part.weight += weights_[member];
    part.arrived[member] = true;
    ++part.contributors;
}

void SpanReducer::accumulate(Part& part, std::size_t member, const float* values) {
    if (clip_) {
        part.inputs.resize(senders_.size());
        part.inputs[member].assign(values, values + part.sum.size());
        return;
    }
    const auto factor = static_cast<float>(weights_[member]);
    for (std::size_t i = 0; i < part.sum.size(); ++i)
        part.sum[i] += factor * values[i];
}

void SpanReducer::add(std::size_t p, std::size_t member, const float* values) {
    Part& part = started(p);
    if (part.done || part.arrived[member])
        return;
    accumulate(part, member, values);
    count(part, member);
}

std::vector<std::size_t> SpanReducer::completeParts() const {
    std::vector<std::size_t> complete;
    for (std::size_t p = 0; p < parts_.size(); ++p) {
        if (parts_[p].done)
            continue;
        // The own member counts from the start, though its values go in only when the sum is made.
        bool all = true;
        for (std::size_t m = 0; m < senders_.size() && all; ++m)
            all = !senders_[m] || excluded_[m] || parts_[p].arrived[m] || (m == own_ && !ownValues_.empty());
        if (all)
            complete.push_back(p);
    }
    return complete;
}

SpanReducer::Mean SpanReducer::finish(std::size_t p) {
    Part& part = started(p);
    part.done = true;
    if (clip_) {
        // Over the senders that contributed (the excluded ones never did). Nobody at all: zeros.
        std::vector<const float*> inputs;
        std::vector<double> weights;
        for (std::size_t m = 0; m < part.inputs.size(); ++m)
            if (part.arrived[m]) {
                inputs.push_back(part.inputs[m].data());
                weights.push_back(weights_[m]);
            }
        if (!inputs.empty())
            part.sum = CenteredClip::aggregate(inputs, weights, part.sum.size(), *clip_).values;
        part.inputs = {};
    } else {
        // No weight at all (nobody accumulated anything): the mean is zero.
        const float scale = part.weight > 0.0 ? static_cast<float>(1.0 / part.weight) : 0.0f;
        for (float& value : part.sum)
            value *= scale;
    }
    Mean mean{part.sum, part.weight, part.contributors, true};
    mean.finite = std::all_of(part.sum.begin(), part.sum.end(), [](float v) { return std::isfinite(v); });
    if (mean.finite)
        TensorEncoding::roundTrip(part.sum.data(), static_cast<std::int64_t>(part.sum.size()), encoding_);
    return mean;
}

void SpanReducer::dropAll() {
    for (Part& part : parts_) {
        part.done = true;
        part.sum = {};
        part.inputs = {};
    }
}

} // namespace sahaj::collab
