#pragma once

#include "core/array/ElementType.h"

#include <cstdint>
#include <string>
#include <vector>

namespace sahaj::array {

// A tensor's values in host memory, in plain C++: element type, shape and the little-endian row-major
// bytes, as a safetensors file stores them. The engine's states and checkpoints are made of these.
struct HostArray {
    ElementType type = ElementType::F32;
    std::vector<std::int64_t> shape;
    std::string bytes;

    // The product of the shape (1 for a scalar's empty shape).
    std::int64_t elements() const;
    bool isFloating() const;

    static HostArray ofFloats(std::vector<std::int64_t> shape, const float* values);
    static HostArray ofInteger(std::int64_t value); // I64, shape [1]

    // The values as fp32 (F32 as they are, F64 rounded, BF16 widened), into `out` (elements() values) or a
    // new vector. Throws std::invalid_argument for other types or bytes that do not match the shape.
    void copyFloatsTo(float* out) const;
    std::vector<float> toFloats() const;
    // Whether every value is finite as fp32 (an F64 beyond fp32's range is not), read in place: a state
    // of hundreds of megabytes is checked without a second copy. Same exceptions as copyFloatsTo.
    bool allFinite() const;
    // The one value of a one-element integer array (I64 I32 I16 I8 U8). Throws std::invalid_argument
    // otherwise.
    std::int64_t toInteger() const;

    friend bool operator==(const HostArray&, const HostArray&) = default;
};

} // namespace sahaj::array
