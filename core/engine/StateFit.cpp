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
    flat.parameters.resize(size_);
    for (std::size_t i = 0; i < segments_.size(); ++i) {
        const optim::ParameterSegment& segment = segments_[i];
        const auto found = state.parameters.find(segment.name);
        if (found == state.parameters.end())
            throw std::runtime_error(origin + ": the state lacks parameter " + segment.name);
        if (found->second.shape != shapes_[i])
            throw std::runtime_error(origin + ": parameter " + segment.name + " has another shape");
        if (!found->second.isFloating())
            throw std::runtime_error(origin + ": parameter " + segment.name + " is not floating point");
        float* values = flat.parameters.data() + segment.offset;
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
        flat.optimizer = OptimizerStateArrays::fromArrays(state.optimizer, segments_, shapes_);
        optim::FlatLamb::checkState(segments_, flat.optimizer.firstMoments, flat.optimizer.secondMoments,
                                    flat.optimizer.steps);
    } catch (const std::exception& e) {
        throw std::runtime_error(origin + ": " + e.what());
    }
    return flat;
}

} // namespace sahaj::engine
