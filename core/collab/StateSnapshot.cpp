#include "core/collab/StateSnapshot.h"

#include <torch/torch.h>

#include <charconv>
#include <stdexcept>

namespace sahaj::collab {

namespace {

const std::string kModelPrefix = "model/";
const std::string kOptimizerPrefix = "optimizer/";

template <typename Integer>
Integer integerField(const model::SafeTensors::Metadata& metadata, const std::string& key,
                     const std::string& fail) {
    const auto found = metadata.find(key);
    Integer value{};
    if (found == metadata.end())
        throw std::runtime_error(fail + "no \"" + key + "\" in the snapshot");
    const std::string& text = found->second;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size())
        throw std::runtime_error(fail + "\"" + key + "\" is not an integer: '" + text.substr(0, 40) + "'");
    return value;
}

} // namespace

std::string StateSnapshot::serialize(const TrainingState& state, const std::string& schema) {
    model::SafeTensors::Tensors tensors;
    for (const auto& [name, tensor] : state.parameters)
        tensors.emplace(kModelPrefix + name, tensor);
    for (const auto& [name, tensor] : state.optimizer)
        tensors.emplace(kOptimizerPrefix + name, tensor);
    return model::SafeTensors::encode(tensors, {{"format", kFormat},
                                                {"schema", schema},
                                                {"epoch", std::to_string(state.epoch)},
                                                {"step", std::to_string(state.step)}});
}

TrainingState StateSnapshot::deserialize(std::string_view bytes, const std::string& schema,
                                         const std::string& origin) {
    const std::string fail = "state snapshot " + origin + ": ";
    model::SafeTensors::Content content = model::SafeTensors::decode(bytes, origin);
    const auto format = content.metadata.find("format");
    if (format == content.metadata.end() || format->second != kFormat)
        throw std::runtime_error(fail + "not a " + kFormat + " snapshot");
    const auto theirs = content.metadata.find("schema");
    if (theirs == content.metadata.end() || theirs->second != schema)
        throw std::runtime_error(fail + "made for another run or model (schema differs)");
    TrainingState state;
    state.epoch = integerField<std::uint64_t>(content.metadata, "epoch", fail);
    state.step = integerField<std::int64_t>(content.metadata, "step", fail);
    if (state.step < 0)
        throw std::runtime_error(fail + "negative step");
    for (auto& [name, tensor] : content.tensors) {
        if (name.rfind(kModelPrefix, 0) == 0)
            state.parameters.emplace(name.substr(kModelPrefix.size()), std::move(tensor));
        else if (name.rfind(kOptimizerPrefix, 0) == 0)
            state.optimizer.emplace(name.substr(kOptimizerPrefix.size()), std::move(tensor));
        else
            throw std::runtime_error(fail + "unexpected tensor '" + name + "'");
    }
    // A donor whose state went bad must not spread it.
    for (const auto* group : {&state.parameters, &state.optimizer})
        for (const auto& [name, tensor] : *group)
            if (at::isFloatingType(tensor.scalar_type()) && !torch::isfinite(tensor).all().item<bool>())
                throw std::runtime_error(fail + "tensor '" + name + "' holds non-finite values");
    return state;
}

} // namespace sahaj::collab
