#pragma once

#include <string>

namespace sahaj::model {

// The activations a config's "hidden_act" may name (Hugging Face's ACT2FN names; HiddenActivation
// computes them). Plain C++: checking a config needs none of libtorch.
struct HiddenActivationName {
    static bool isSupported(const std::string& name) {
        return name == "gelu_new" || name == "gelu" || name == "relu";
    }
    // "gelu_new, gelu, relu": for error messages.
    static std::string supportedNames() { return "gelu_new, gelu, relu"; }
};

} // namespace sahaj::model
