#include "core/collab/StateMedian.h"

#include "core/collab/CoordinateMedian.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace sahaj::collab {

namespace {

array::HostArray medianArray(const std::string& name, const std::vector<const array::HostArray*>& arrays) {
    const array::HostArray& first = *arrays.front();
    for (const array::HostArray* other : arrays)
        if (other->type != first.type || other->shape != first.shape)
            throw std::invalid_argument("the states differ in the type or shape of " + name);
    if (!first.isFloating()) {
        if (first.elements() != 1)
            throw std::invalid_argument("the states hold an integer array " + name +
                                        " of more than one value");
        std::vector<double> values; // step counts: exact in a double
        for (const array::HostArray* array : arrays)
            values.push_back(static_cast<double>(array->toInteger()));
        return array::HostArray::ofInteger(static_cast<std::int64_t>(medianOf(values)));
    }
    const auto count = static_cast<std::size_t>(first.elements());
    std::vector<std::vector<float>> values;
    std::vector<const float*> vectors;
    values.reserve(arrays.size());
    for (const array::HostArray* array : arrays)
        vectors.push_back(values.emplace_back(array->toFloats()).data());
    // A median of fp32 values is one of them (or, of an even count, the mean of two): fp32 again.
    const std::vector<double> median = coordinateMedian(vectors, count);
    const std::vector<float> narrowed(median.begin(), median.end());
    return array::HostArray::ofFloats(first.shape, narrowed.data());
}

array::SafeTensorsImage::Arrays medianArrays(const std::vector<const array::SafeTensorsImage::Arrays*>& sets,
                                             const char* what) {
    array::SafeTensorsImage::Arrays result;
    for (const auto& [name, array] : *sets.front()) {
        std::vector<const array::HostArray*> arrays;
        for (const array::SafeTensorsImage::Arrays* set : sets) {
            const auto it = set->find(name);
            if (it == set->end() || set->size() != sets.front()->size())
                throw std::invalid_argument(std::string("the states differ in the names of their ") + what);
            arrays.push_back(&it->second);
        }
        result.emplace(name, medianArray(name, arrays));
    }
    return result;
}

} // namespace

TrainingState StateMedian::of(const std::vector<TrainingState>& states) {
    if (states.empty())
        throw std::invalid_argument("a median of no state");
    std::vector<const array::SafeTensorsImage::Arrays*> parameters;
    std::vector<const array::SafeTensorsImage::Arrays*> optimizer;
    std::vector<double> steps;
    for (const TrainingState& state : states) {
        if (state.epoch != states.front().epoch)
            throw std::invalid_argument("a median of states of epochs " +
                                        std::to_string(states.front().epoch) + " and " +
                                        std::to_string(state.epoch));
        parameters.push_back(&state.parameters);
        optimizer.push_back(&state.optimizer);
        steps.push_back(static_cast<double>(state.step));
    }
    TrainingState median;
    median.epoch = states.front().epoch;
    median.step = static_cast<std::int64_t>(medianOf(steps));
    median.parameters = medianArrays(parameters, "parameters");
    median.optimizer = medianArrays(optimizer, "optimiser state");
    return median;
}

} // namespace sahaj::collab
