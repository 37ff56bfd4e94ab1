#pragma once

// The LAMB options of a case of tests/train/data/lamb-golden.json (scripts/lamb-golden.py), for the tests
// that check the tensor and the flat optimiser against it.

#include "core/optim/LambOptions.h"

#include <nlohmann/json.hpp>

namespace sahaj::test {

inline optim::LambOptions lambOptionsFrom(const nlohmann::json& j) {
    optim::LambOptions o;
    o.learningRate = j.at("lr").get<double>();
    o.beta1 = j.at("beta1").get<double>();
    o.beta2 = j.at("beta2").get<double>();
    o.eps = j.at("eps").get<double>();
    o.weightDecay = j.at("weight_decay").get<double>();
    o.clampValue = j.at("clamp_value").get<double>();
    o.adam = j.at("adam").get<bool>();
    o.debias = j.at("debias").get<bool>();
    return o;
}

} // namespace sahaj::test
