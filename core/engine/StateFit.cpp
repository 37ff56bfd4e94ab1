#include "core/engine/StateFit.h"

#include "core/optim/FlatLamb.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>

namespace sahaj::engine {

StateFit::StateFit(std::vector<optim::ParameterSegment> segments,
                   std::vector<std::vector<std::int64_t>> shapes)
    : segments_(std::move(segments)), shapes_(std::move(shapes)) {
    if (shapes_.size() != segments_.size())
        throw std::invalid_argument("a state fit needs one shape per parameter");
    for (const optim::ParameterSegment& segment : segments_) {
        if (segment.offset != size_)
            throw std::invalid_argument("a state fit needs the parameters one after another");
        size_ += segment.length;
    }
}

StateFit::Flat StateFit::check(const collab::TrainingState& state, const std::string& origin) const {
    Flat flat;
    walk(state, origin, &flat);
    return flat;
}

void StateFit::validate(const collab::TrainingState& state, const std::string& origin) const {
    walk(state, origin, nullptr);
}

void StateFit::walk(const collab::TrainingState& state, const std::string& origin, Flat* into) const {
    // Without a flat copy to fill, one parameter's values at a time go through these.
    std::vector<float> parameter;
    std::vector<float> firstMoment;
    std::vector<float> secondMoment;
    if (into) {
        into->parameters.resize(size_);
        into->optimizer.firstMoments.resize(size_);
        into->optimizer.secondMoments.resize(size_);
        into->optimizer.steps.clear();
    }
    const auto placeFor = [&](std::vector<float>* flat, std::vector<float>& scratch,
                              const optim::ParameterSegment& segment) {
        if (flat)
            return flat->data() + segment.offset;
        scratch.resize(segment.length);
        return scratch.data();
    };
    for (std::size_t i = 0; i < segments_.size(); ++i) {
        const optim::ParameterSegment& segment = segments_[i];
        const auto found = state.parameters.find(segment.name);
        if (found == state.parameters.end())
            throw std::runtime_error(origin + ": the state lacks parameter " + segment.name);
        if (found->second.shape != shapes_[i])
            throw std::runtime_error(origin + ": parameter " + segment.name + " has another shape");
        if (!found->second.isFloating())
            throw std::runtime_error(origin + ": parameter " + segment.name + " is not floating point");
        float* values = placeFor(into ? &into->parameters : nullptr, parameter, segment);
        try {
            found->second.copyFloatsTo(values);
        } catch (const std::invalid_argument& e) {
            throw std::runtime_error(origin + ": parameter " + segment.name + ": " + e.what());
        }
        if (!std::all_of(values, values + segment.length, [](float value) { return std::isfinite(value); }))
            throw std::runtime_error(origin + ": parameter " + segment.name + " has non-finite values");
    }
    if (state.parameters.size() != segments_.size())
        throw std::runtime_error(origin + ": the state has parameters this model does not");
    try {
        for (std::size_t i = 0; i < segments_.size(); ++i) {
            const optim::ParameterSegment& segment = segments_[i];
            float* first = placeFor(into ? &into->optimizer.firstMoments : nullptr, firstMoment, segment);
            float* second = placeFor(into ? &into->optimizer.secondMoments : nullptr, secondMoment, segment);
            const std::int64_t step =
                OptimizerStateArrays::segmentFrom(state.optimizer, segment, shapes_[i], first, second);
            optim::FlatLamb::checkSegment(segment, first, second, step);
            if (into)
                into->optimizer.steps.push_back(step);
        }
        OptimizerStateArrays::checkNoOthers(state.optimizer, segments_);
    } catch (const std::exception& e) {
        throw std::runtime_error(origin + ": " + e.what());
    }
}

} // namespace sahaj::engine
