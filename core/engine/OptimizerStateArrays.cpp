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

OptimizerStateArrays::Flat
OptimizerStateArrays::fromArrays(const array::SafeTensorsImage::Arrays& arrays,
                                 const std::vector<optim::ParameterSegment>& segments,
                                 const std::vector<std::vector<std::int64_t>>& shapes) {
    const auto find = [&](const std::string& key) -> const array::HostArray& {
        const auto it = arrays.find(key);
        if (it == arrays.end())
            fail("missing tensor '" + key + "'");
        return it->second;
    };
    Flat flat;
    std::size_t total = 0;
    for (const auto& segment : segments)
        total += segment.length;
    flat.firstMoments.resize(total);
    flat.secondMoments.resize(total);
    std::set<std::string> expected;
    for (std::size_t i = 0; i < segments.size(); ++i) {
        const std::string& name = segments[i].name;
        try {
            flat.steps.push_back(find(name + kStepSuffix).toInteger());
        } catch (const std::invalid_argument&) {
            fail("'" + name + kStepSuffix + "' must be one integer");
        }
        for (const char* suffix : {kFirstMomentSuffix, kSecondMomentSuffix}) {
            const array::HostArray& moment = find(name + suffix);
            if (moment.shape != shapes[i])
                fail("'" + name + suffix + "' does not have the parameter's shape");
            if (!moment.isFloating())
                fail("'" + name + suffix + "' is not floating point");
            std::vector<float>& into =
                std::string(suffix) == kFirstMomentSuffix ? flat.firstMoments : flat.secondMoments;
            try {
                moment.copyFloatsTo(into.data() + segments[i].offset);
            } catch (const std::invalid_argument& e) {
                fail("'" + name + suffix + "': " + e.what());
            }
        }
        for (const char* suffix : {kFirstMomentSuffix, kSecondMomentSuffix, kStepSuffix})
            expected.insert(name + suffix);
    }
    for (const auto& [key, values] : arrays)
        if (!expected.count(key))
            fail("unexpected tensor '" + key + "' (no such parameter in the model)");
    return flat;
}

} // namespace sahaj::engine
