#include "core/collab/TensorEncoding.h"

#include "core/collab/HalfConversion.h"
#include "core/net/MessageValidator.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <vector>

namespace sahaj::collab {

namespace {

std::uint64_t bytesFor(const wire::Encoding& encoding, std::int64_t count) {
    try {
        return net::MessageValidator::encodedBytes(encoding, static_cast<std::uint64_t>(count));
    } catch (const std::exception& e) {
        throw std::invalid_argument(e.what());
    }
}

// One block's affine map: the smallest and largest value span the 256 levels.
void blockRange(const float* values, std::int64_t count, float& offset, float& scale) {
    const auto [low, high] = std::minmax_element(values, values + count);
    offset = *low;
    scale = (*high - *low) / 255.0f;
}

std::uint8_t quantise(float value, float offset, float scale) {
    if (scale <= 0.0f)
        return 0;
    const float level = std::nearbyint((value - offset) / scale);
    return static_cast<std::uint8_t>(std::clamp(level, 0.0f, 255.0f));
}

} // namespace

zmq::message_t TensorEncoding::encode(const float* values, std::int64_t count,
                                      const wire::Encoding& encoding) {
    zmq::message_t frame(bytesFor(encoding, count));
    auto* out = static_cast<unsigned char*>(frame.data());
    switch (encoding.dtype()) {
    case wire::WIRE_FLOAT32:
        std::memcpy(out, values, static_cast<std::size_t>(count) * sizeof(float));
        break;
    case wire::WIRE_FLOAT16:
        HalfConversion::toHalves(values, count, out);
        break;
    case wire::WIRE_UINT8_BLOCKWISE: {
        const std::int64_t block = encoding.block();
        unsigned char* params = out + count;
        for (std::int64_t begin = 0, b = 0; begin < count; begin += block, ++b) {
            const std::int64_t size = std::min(block, count - begin);
            float offset = 0.0f, scale = 0.0f;
            blockRange(values + begin, size, offset, scale);
            for (std::int64_t i = 0; i < size; ++i)
                out[begin + i] = quantise(values[begin + i], offset, scale);
            std::memcpy(params + 8 * b, &scale, 4);
            std::memcpy(params + 8 * b + 4, &offset, 4);
        }
        break;
    }
    default:
        throw std::invalid_argument("unknown wire dtype");
    }
    return frame;
}

void TensorEncoding::decode(const zmq::message_t& frame, std::int64_t count, const wire::Encoding& encoding,
                            float* out) {
    if (frame.size() != bytesFor(encoding, count))
        throw std::runtime_error("a data frame of " + std::to_string(frame.size()) + " bytes does not hold " +
                                 std::to_string(count) + " values");
    const auto* in = static_cast<const unsigned char*>(frame.data());
    switch (encoding.dtype()) {
    case wire::WIRE_FLOAT32:
        std::memcpy(out, in, static_cast<std::size_t>(count) * sizeof(float));
        break;
    case wire::WIRE_FLOAT16:
        HalfConversion::toFloats(in, count, out);
        break;
    case wire::WIRE_UINT8_BLOCKWISE: {
        const std::int64_t block = encoding.block();
        const unsigned char* params = in + count;
        for (std::int64_t begin = 0, b = 0; begin < count; begin += block, ++b) {
            float scale = 0.0f, offset = 0.0f;
            std::memcpy(&scale, params + 8 * b, 4);
            std::memcpy(&offset, params + 8 * b + 4, 4);
            const std::int64_t size = std::min(block, count - begin);
            for (std::int64_t i = 0; i < size; ++i)
                out[begin + i] = offset + static_cast<float>(in[begin + i]) * scale;
        }
        break;
    }
    default:
        throw std::invalid_argument("unknown wire dtype");
    }
    for (std::int64_t i = 0; i < count; ++i)
        if (!std::isfinite(out[i]))
            throw std::runtime_error("a part holds a non-finite value at index " + std::to_string(i));
}

void TensorEncoding::roundTrip(float* values, std::int64_t count, const wire::Encoding& encoding) {
    if (encoding.dtype() == wire::WIRE_FLOAT32)
        return;
    const zmq::message_t frame = encode(values, count, encoding);
    decode(frame, count, encoding, values);
}

double TensorEncoding::bytesPerValue(const wire::Encoding& encoding) {
    constexpr std::uint64_t kValues = 1u << 20;
    return static_cast<double>(net::MessageValidator::encodedBytes(encoding, kValues)) / kValues;
}

wire::Encoding TensorEncoding::fp16() {
    wire::Encoding e;
    e.set_dtype(wire::WIRE_FLOAT16);
    return e;
}

wire::Encoding TensorEncoding::fp32() {
    wire::Encoding e;
    e.set_dtype(wire::WIRE_FLOAT32);
    return e;
}

wire::Encoding TensorEncoding::uint8Blockwise(std::uint32_t block) {
    wire::Encoding e;
    e.set_dtype(wire::WIRE_UINT8_BLOCKWISE);
    e.set_block(block);
    return e;
}

} // namespace sahaj::collab
