#include "core/model/HiddenActivation.h"

#include <torch/torch.h>

#include <stdexcept>

namespace sahaj::model {

HiddenActivation::HiddenActivation(const std::string& name) {
    if (name == "gelu_new")
        kind_ = Kind::GeluTanh;
    else if (name == "gelu")
        kind_ = Kind::GeluExact;
    else if (name == "relu")
        kind_ = Kind::Relu;
    else
        throw std::invalid_argument("hidden_act '" + name + "' is not supported (supported: " +
                                    HiddenActivationName::supportedNames() + ")");
}

at::Tensor HiddenActivation::operator()(const at::Tensor& input) const {
    switch (kind_) {
    case Kind::GeluTanh:
        // 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))), Hugging Face's NewGELUActivation, fused.
        return at::gelu(input, "tanh");
    case Kind::GeluExact:
        return at::gelu(input);
    case Kind::Relu:
        return at::relu(input);
    }
    throw std::logic_error("unreachable activation kind");
}

} // namespace sahaj::model
