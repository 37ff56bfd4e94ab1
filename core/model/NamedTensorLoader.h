#pragma once

#include "core/model/SafeTensors.h"

#include <ATen/core/Tensor.h>
#include <torch/ordered_dict.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace sahaj::model {

// Copies tensors read from a file into a module's parameters by name, all or nothing: every parameter
// must be present with its exact shape and a floating dtype, and the file may hold nothing else except
// the names in `ignorable` (each with the shape it must have, or nullopt for any shape). Otherwise one
// std::runtime_error lists the missing, unexpected, mis-shaped and non-float tensors, naming `source`,
// and no parameter is touched. Copies convert dtype and device and keep tied storage intact.
class NamedTensorLoader {
public:
    using Ignorable = std::map<std::string, std::optional<std::vector<std::int64_t>>>;

    static void load(const torch::OrderedDict<std::string, at::Tensor>& parameters,
                     const SafeTensors::Tensors& tensors, const Ignorable& ignorable,
                     const std::string& source);
};

} // namespace sahaj::model
