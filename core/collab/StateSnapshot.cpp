#include "core/collab/StateSnapshot.h"

#include <charconv>
#include <stdexcept>

namespace sahaj::collab {

namespace {

const std::string kModelPrefix = "model/";
const std::string kOptimizerPrefix = "optimizer/";

template <typename Integer>
Integer integerField(const array::SafeTensorsImage::Metadata& metadata, const std::string& key,
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
    array::SafeTensorsImage::Arrays arrays;
    for (const auto& [name, values] : state.parameters)
        arrays.emplace(kModelPrefix + name, values);
    for (const auto& [name, values] : state.optimizer)
        arrays.emplace(kOptimizerPrefix + name, values);
    return array::SafeTensorsImage::encode(arrays, {{"format", kFormat},
                                                    {"schema", schema},
                                                    {"epoch", std::to_string(state.epoch)},
                                                    {"step", std::to_string(state.step)}});
}

TrainingState StateSnapshot::deserialize(std::string_view bytes, const std::string& schema,
                                         const std::string& origin) {
    const std::string fail = "state snapshot " + origin + ": ";
    array::SafeTensorsImage::Content content = array::SafeTensorsImage::decode(bytes, origin);
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
    for (auto& [name, values] : content.arrays) {
        if (name.rfind(kModelPrefix, 0) == 0)
            state.parameters.emplace(name.substr(kModelPrefix.size()), std::move(values));
        else if (name.rfind(kOptimizerPrefix, 0) == 0)
            state.optimizer.emplace(name.substr(kOptimizerPrefix.size()), std::move(values));
        else
            throw std::runtime_error(fail + "unexpected tensor '" + name + "'");
    }
    // A donor whose state went bad must not spread it.
    for (const auto* group : {&state.parameters, &state.optimizer})
        for (const auto& [name, values] : *group) {
            if (!values.isFloating())
                continue;
            bool finite = false;
            try {
                finite = values.allFinite();
            } catch (const std::invalid_argument&) {
                throw std::runtime_error(fail + "tensor '" + name +
                                         "' is of a floating-point type the engine does not read");
            }
            if (!finite)
                throw std::runtime_error(fail + "tensor '" + name + "' holds non-finite values");
        }
    return state;
}

} // namespace sahaj::collab
