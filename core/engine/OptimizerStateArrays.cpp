#include "core/engine/OptimizerStateArrays.h"

#include "core/optim/FlatLamb.h"

#include <algorithm>
#include <set>
#include <stdexcept>

namespace sahaj::engine {

namespace {

[[noreturn]] void fail(const std::string& message) {
    throw std::runtime_error("optimizer state: " + message);
}

} // namespace

array::SafeTensorsImage::Arrays
OptimizerStateArrays::toArrays(const optim::FlatLamb& optimizer,
                               const std::vector<std::vector<std::int64_t>>& shapes) {
    array::SafeTensorsImage::Arrays out;
    const auto& segments = optimizer.segments();
    for (std::size_t i = 0; i < segments.size(); ++i) {
        const optim::ParameterSegment& segment = segments[i];
        out[segment.name + kFirstMomentSuffix] =
            array::HostArray::ofFloats(shapes[i], optimizer.firstMoments().data() + segment.offset);
        out[segment.name + kSecondMomentSuffix] =
            array::HostArray::ofFloats(shapes[i], optimizer.secondMoments().data() + segment.offset);
        out[segment.name + kStepSuffix] = array::HostArray::ofInteger(optimizer.steps()[i]);
    }
    return out;
}

std::int64_t OptimizerStateArrays::segmentFrom(const array::SafeTensorsImage::Arrays& arrays,
                                               const optim::ParameterSegment& segment,
                                               const std::vector<std::int64_t>& shape, float* firstMoments,
                                               float* secondMoments) {
    const auto find = [&](const std::string& key) -> const array::HostArray& {
        const auto it = arrays.find(key);
        if (it == arrays.end())
            fail("missing tensor '" + key + "'");
        return it->second;
    };
    const std::string& name = segment.name;
    std::int64_t step = 0;
    try {
        step = find(name + kStepSuffix).toInteger();
    } catch (const std::invalid_argument&) {
        fail("'" + name + kStepSuffix + "' must be one integer");
    }
    for (const char* suffix : {kFirstMomentSuffix, kSecondMomentSuffix}) {
        const array::HostArray& moment = find(name + suffix);
        if (moment.shape != shape)
            fail("'" + name + suffix + "' does not have the parameter's shape");
        if (!moment.isFloating())
            fail("'" + name + suffix + "' is not floating point");
        try {
            moment.copyFloatsTo(std::string(suffix) == kFirstMomentSuffix ? firstMoments : secondMoments);
        } catch (const std::invalid_argument& e) {
            fail("'" + name + suffix + "': " + e.what());
        }
    }
    return step;
}

void OptimizerStateArrays::checkNoOthers(const array::SafeTensorsImage::Arrays& arrays,
                                         const std::vector<optim::ParameterSegment>& segments) {
    std::set<std::string> expected;
    for (const optim::ParameterSegment& segment : segments)
        for (const char* suffix : {kFirstMomentSuffix, kSecondMomentSuffix, kStepSuffix})
            expected.insert(segment.name + suffix);
    for (const auto& [key, values] : arrays)
        if (!expected.count(key))
            fail("unexpected tensor '" + key + "' (no such parameter in the model)");
}

} // namespace sahaj::engine
