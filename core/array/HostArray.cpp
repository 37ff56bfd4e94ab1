#include "core/array/HostArray.h"

#include "core/array/SafeTensorsHeader.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <stdexcept>

namespace sahaj::array {

static_assert(std::endian::native == std::endian::little, "host arrays hold little-endian bytes as they are");

namespace {

template <typename T>
T valueAt(const std::string& bytes, std::int64_t index) {
    T value;
    std::memcpy(&value, bytes.data() + static_cast<std::size_t>(index) * sizeof(T), sizeof(T));
    return value;
}

std::string typeName(ElementType type) {
    const SafeTensorsHeader::Dtype* dtype = SafeTensorsHeader::dtypeByType(type);
    return dtype ? dtype->name : "unknown";
}

} // namespace

std::int64_t HostArray::elements() const {
    std::int64_t count = 1;
    for (std::int64_t size : shape)
        count *= size;
    return count;
}

bool HostArray::isFloating() const {
    return type == ElementType::F64 || type == ElementType::F32 || type == ElementType::F16 ||
           type == ElementType::BF16;
}

HostArray HostArray::ofFloats(std::vector<std::int64_t> shape, const float* values) {
    HostArray array;
    array.type = ElementType::F32;
    array.shape = std::move(shape);
    array.bytes.assign(reinterpret_cast<const char*>(values),
                       static_cast<std::size_t>(array.elements()) * sizeof(float));
    return array;
}

HostArray HostArray::ofInteger(std::int64_t value) {
    HostArray array;
    array.type = ElementType::I64;
    array.shape = {1};
    array.bytes.assign(reinterpret_cast<const char*>(&value), sizeof(value));
    return array;
}

// Calls visit(i, value as fp32) for every value in order, stopping at the first that returns false;
// returns whether none did.
template <typename Visit>
bool forEachFloat(const HostArray& array, Visit&& visit) {
    const SafeTensorsHeader::Dtype* dtype = SafeTensorsHeader::dtypeByType(array.type);
    const std::int64_t count = array.elements();
    if (!dtype || count < 0 || array.bytes.size() != static_cast<std::size_t>(count) * dtype->size)
        throw std::invalid_argument("an array whose bytes do not match its shape");
    for (std::int64_t i = 0; i < count; ++i) {
        float value = 0.0f;
        switch (array.type) {
        case ElementType::F32:
            value = valueAt<float>(array.bytes, i);
            break;
        case ElementType::F64:
            value = static_cast<float>(valueAt<double>(array.bytes, i));
            break;
        case ElementType::BF16:
            value = std::bit_cast<float>(static_cast<std::uint32_t>(valueAt<std::uint16_t>(array.bytes, i))
                                         << 16);
            break;
        default:
            throw std::invalid_argument("an array of " + typeName(array.type) +
                                        " where floating-point values belong");
        }
        if (!visit(i, value))
            return false;
    }
    return true;
}

void HostArray::copyFloatsTo(float* out) const {
    forEachFloat(*this, [out](std::int64_t i, float value) {
        out[i] = value;
        return true;
    });
}

std::vector<float> HostArray::toFloats() const {
    std::vector<float> values(static_cast<std::size_t>(std::max<std::int64_t>(elements(), 0)));
    copyFloatsTo(values.data());
    return values;
}

bool HostArray::allFinite() const {
    return forEachFloat(*this, [](std::int64_t, float value) { return std::isfinite(value); });
}

std::int64_t HostArray::toInteger() const {
    const SafeTensorsHeader::Dtype* dtype = SafeTensorsHeader::dtypeByType(type);
    if (elements() != 1 || !dtype || bytes.size() != dtype->size)
        throw std::invalid_argument("not one integer");
    switch (type) {
    case ElementType::I64:
        return valueAt<std::int64_t>(bytes, 0);
    case ElementType::I32:
        return valueAt<std::int32_t>(bytes, 0);
    case ElementType::I16:
        return valueAt<std::int16_t>(bytes, 0);
    case ElementType::I8:
        return valueAt<std::int8_t>(bytes, 0);
    case ElementType::U8:
        return valueAt<std::uint8_t>(bytes, 0);
    default:
        throw std::invalid_argument("not one integer");
    }
}

} // namespace sahaj::array
