#include "core/model/AlbertInitialization.h"

#include <torch/torch.h>

namespace sahaj::model {

void initializeAlbertWeights(torch::nn::Module& module, double std) {
    torch::NoGradGuard noGrad;
    for (const auto& child : module.modules(/*include_self=*/false)) {
        if (auto* linear = child->as<torch::nn::Linear>()) {
            linear->weight.normal_(0.0, std);
            if (linear->bias.defined())
                linear->bias.zero_();
        } else if (auto* embedding = child->as<torch::nn::Embedding>()) {
            embedding->weight.normal_(0.0, std);
            if (const auto& padding = embedding->options.padding_idx())
                embedding->weight[*padding].zero_();
        } else if (auto* norm = child->as<torch::nn::LayerNorm>()) {
            norm->weight.fill_(1.0);
            norm->bias.zero_();
        }
    }
}

std::map<std::string, optim::InitialValueRule> albertInitialValueRules(const torch::nn::Module& module,
                                                                       double std) {
    using Rule = optim::InitialValueRule;
    const Rule normal{Rule::Kind::Normal, std, 0.0, std::nullopt, 0};
    const auto constant = [](double value) {
        return Rule{Rule::Kind::Constant, 0.0, value, std::nullopt, 0};
    };
    std::map<std::string, Rule> rules;
    for (const auto& item : module.named_modules(/*name_prefix=*/"", /*include_self=*/false)) {
        const std::string prefix = item.key() + ".";
        const auto& child = item.value();
        if (const auto* linear = child->as<torch::nn::Linear>()) {
            rules[prefix + "weight"] = normal;
            if (linear->bias.defined())
                rules[prefix + "bias"] = constant(0.0);
        } else if (const auto* embedding = child->as<torch::nn::Embedding>()) {
            Rule rule = normal;
            if (const auto& padding = embedding->options.padding_idx()) {
                rule.zeroRow = static_cast<std::size_t>(*padding);
                rule.rowLength = static_cast<std::size_t>(embedding->weight.size(1));
            }
            rules[prefix + "weight"] = rule;
        } else if (child->as<torch::nn::LayerNorm>()) {
            rules[prefix + "weight"] = constant(1.0);
            rules[prefix + "bias"] = constant(0.0);
        }
    }
    for (const auto& item : module.named_parameters(/*recurse=*/true)) {
        if (rules.count(item.key()))
            continue;
        const at::Tensor values = item.value().detach().flatten();
        if (values.numel() == 0 || !values.eq(values[0]).all().item<bool>())
            throw std::logic_error("no initialisation rule for parameter " + item.key());
        rules[item.key()] = constant(values[0].item<double>());
    }
    return rules;
}

} // namespace sahaj::model
