#include "core/model/NamedTensorLoader.h"

#include <torch/torch.h>

#include <sstream>
#include <stdexcept>

namespace sahaj::model {

namespace {

std::string shapeOf(at::IntArrayRef sizes) {
    std::ostringstream s;
    s << sizes;
    return s.str();
}

// "a, b, c (and 7 more)": long lists would bury the message.
std::string listed(const std::vector<std::string>& names) {
    constexpr std::size_t kShown = 8;
    std::string text;
    for (std::size_t i = 0; i < names.size() && i < kShown; ++i)
        text += (i ? ", " : "") + names[i];
    if (names.size() > kShown)
        text += " (and " + std::to_string(names.size() - kShown) + " more)";
    return text;
}

} // namespace

void NamedTensorLoader::load(const torch::OrderedDict<std::string, at::Tensor>& parameters,
                             const SafeTensors::Tensors& tensors, const Ignorable& ignorable,
                             const std::string& source) {
    std::vector<std::string> missing, unexpected, mismatched, wrongType;
    for (const auto& item : parameters) {
        const auto found = tensors.find(item.key());
        if (found == tensors.end()) {
            missing.push_back(item.key());
            continue;
        }
        if (!found->second.sizes().equals(item.value().sizes()))
            mismatched.push_back(item.key() + " " + shapeOf(found->second.sizes()) + " (model " +
                                 shapeOf(item.value().sizes()) + ")");
        else if (!at::isFloatingType(found->second.scalar_type()))
            wrongType.push_back(item.key() + " (" + c10::toString(found->second.scalar_type()) + ")");
    }
    for (const auto& [name, tensor] : tensors) {
        if (parameters.contains(name))
            continue;
        const auto allowed = ignorable.find(name);
        if (allowed == ignorable.end()) {
            unexpected.push_back(name);
            continue;
        }
        // An ignorable tensor with a known shape (a tied alias) must at least fit what it stands for.
        if (allowed->second && !tensor.sizes().equals(at::IntArrayRef(*allowed->second)))
            mismatched.push_back(name + " " + shapeOf(tensor.sizes()) + " (model " +
                                 shapeOf(at::IntArrayRef(*allowed->second)) + ")");
    }
    if (!missing.empty() || !unexpected.empty() || !mismatched.empty() || !wrongType.empty()) {
        std::string message = "model weights " + source + " do not match the model:";
        if (!missing.empty())
            message += " missing " + std::to_string(missing.size()) + " tensor(s): " + listed(missing) + ";";
        if (!unexpected.empty())
            message += " unexpected " + std::to_string(unexpected.size()) +
                       " tensor(s): " + listed(unexpected) + ";";
        if (!mismatched.empty())
            message += " wrong shape: " + listed(mismatched) + ";";
        if (!wrongType.empty())
            message += " not floating point: " + listed(wrongType) + ";";
        message.pop_back();
        throw std::runtime_error(message);
    }
    torch::NoGradGuard noGrad;
    for (const auto& item : parameters)
        item.value().copy_(tensors.at(item.key()));
}

} // namespace sahaj::model
