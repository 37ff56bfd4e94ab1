#pragma once

#include "core/array/SafeTensorsImage.h"
#include "core/optim/ParameterSegment.h"

#include <cstdint>
#include <string>
#include <vector>

namespace sahaj::optim {
class FlatLamb;
}

namespace sahaj::engine {

// LAMB's state as named arrays, the layout of checkpoints and of transferred states (the names of
// train::Lamb::exportState: "<name>.exp_avg", "<name>.exp_avg_sq", "<name>.step"), to and from the flat
// vectors of optim::FlatLamb. The state of a checkpoint written by the tensor optimiser loads here, and
// the other way round.
class OptimizerStateArrays {
public:
    struct Flat {
        std::vector<float> firstMoments;
        std::vector<float> secondMoments;
        std::vector<std::int64_t> steps; // segment order
    };

    // shapes: each segment's tensor shape, in segment order.
    static array::SafeTensorsImage::Arrays toArrays(const optim::FlatLamb& optimizer,
                                                    const std::vector<std::vector<std::int64_t>>& shapes);
    // One parameter's moments and step from the arrays: its moments into firstMoments and secondMoments
    // (segment.length values each), its step count returned. Throws std::runtime_error ("optimizer state:
    // ...") naming the first problem: a missing array, a shape that is not the parameter's, a moment that
    // is not floating point, a step that is not one integer. Values (finite, signs) are
    // FlatLamb::checkSegment's to check.
    static std::int64_t segmentFrom(const array::SafeTensorsImage::Arrays& arrays,
                                    const optim::ParameterSegment& segment,
                                    const std::vector<std::int64_t>& shape, float* firstMoments,
                                    float* secondMoments);
    // Throws std::runtime_error for an array that is no parameter's moment or step.
    static void checkNoOthers(const array::SafeTensorsImage::Arrays& arrays,
                              const std::vector<optim::ParameterSegment>& segments);

    static constexpr const char* kFirstMomentSuffix = ".exp_avg";
    static constexpr const char* kSecondMomentSuffix = ".exp_avg_sq";
    static constexpr const char* kStepSuffix = ".step";
};

} // namespace sahaj::engine
