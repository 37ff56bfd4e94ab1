#include "core/array/HostArray.h"

#include "core/array/SafeTensorsHeader.h"

#include <bit>
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

std::vector<float> HostArray::toFloats() const {
    const SafeTensorsHeader::Dtype* dtype = SafeTensorsHeader::dtypeByType(type);
    const std::int64_t count = elements();
    if (!dtype || count < 0 || bytes.size() != static_cast<std::size_t>(count) * dtype->size)
        throw std::invalid_argument("an array whose bytes do not match its shape");
    std::vector<float> values(static_cast<std::size_t>(count));
    switch (type) {
    case ElementType::F32:
        std::memcpy(values.data(), bytes.data(), bytes.size());
        break;
    case ElementType::F64:
        for (std::int64_t i = 0; i < count; ++i)
            values[static_cast<std::size_t>(i)] = static_cast<float>(valueAt<double>(bytes, i));
        break;
    case ElementType::BF16:
        for (std::int64_t i = 0; i < count; ++i)
            values[static_cast<std::size_t>(i)] =
                std::bit_cast<float>(static_cast<std::uint32_t>(valueAt<std::uint16_t>(bytes, i)) << 16);
        break;
    default:
        throw std::invalid_argument("an array of " + typeName(type) + " where floating-point values belong");
    }
    return values;
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
