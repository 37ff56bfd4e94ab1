#pragma once

#include "core/model/AlbertConfig.h"
#include "core/optim/InitialValueRule.h"

#include <cstdint>
#include <string>
#include <vector>

namespace sahaj::model {

// ALBERT's parameters for pre-training as the engine knows them without libtorch: each name and shape in
// AlbertForPreTraining::named_parameters() order (Hugging Face's state-dict names, the tied decoder left
// out), with Hugging Face's initialisation (AlbertPreTrainedModel._init_weights) as a rule. The engine
// keeps its replica in this layout; a compute core checks that its model has exactly this layout before it
// computes anything (docs/compute-cores.md), and tst_parameter_layout compares the two.
struct ParameterLayoutEntry {
    std::string name;
    std::vector<std::int64_t> shape;
    optim::InitialValueRule initialValue;

    std::int64_t elements() const;
    friend bool operator==(const ParameterLayoutEntry&, const ParameterLayoutEntry&) = default;
};

class AlbertParameterLayout {
public:
    // Throws std::invalid_argument for a config that does not validate.
    static std::vector<ParameterLayoutEntry> of(const AlbertConfig& config);
    // The sum of the entries' elements: AlbertConfig::parameterCount().
    static std::int64_t elements(const std::vector<ParameterLayoutEntry>& layout);
    // Every parameter's initial values in layout order, drawn by optim::ParameterInitializer from `seed`:
    // the same bits on every CPU.
    static std::vector<float> initialValues(const std::vector<ParameterLayoutEntry>& layout,
                                            std::uint64_t seed);
};

} // namespace sahaj::model
