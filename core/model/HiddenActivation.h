#pragma once

#include "core/model/HiddenActivationName.h"

#include <ATen/core/Tensor.h>

#include <string>

namespace sahaj::model {

// The activation named by a config's "hidden_act", resolved once so that the forward pass does not compare
// strings. Names follow Hugging Face's ACT2FN: "gelu_new" is the tanh approximation of GELU (what
// ALBERT was trained with), "gelu" the exact erf form, "relu" the rectifier.
class HiddenActivation {
public:
    // Throws std::invalid_argument for a name that isSupported() rejects.
    explicit HiddenActivation(const std::string& name);

    at::Tensor operator()(const at::Tensor& input) const;

    static bool isSupported(const std::string& name) { return HiddenActivationName::isSupported(name); }

private:
    enum class Kind { GeluTanh, GeluExact, Relu };
    Kind kind_;
};

} // namespace sahaj::model
