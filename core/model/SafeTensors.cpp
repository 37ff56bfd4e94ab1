#include "core/model/SafeTensors.h"

#include <torch/torch.h>

#include <array>
#include <cstring>
#include <stdexcept>
#include <utility>

namespace sahaj::model {

namespace {

constexpr std::array<std::pair<array::ElementType, c10::ScalarType>, 10> kTypes{{
    {array::ElementType::F64, c10::ScalarType::Double},
    {array::ElementType::F32, c10::ScalarType::Float},
    {array::ElementType::F16, c10::ScalarType::Half},
    {array::ElementType::BF16, c10::ScalarType::BFloat16},
    {array::ElementType::I64, c10::ScalarType::Long},
    {array::ElementType::I32, c10::ScalarType::Int},
    {array::ElementType::I16, c10::ScalarType::Short},
    {array::ElementType::I8, c10::ScalarType::Char},
    {array::ElementType::U8, c10::ScalarType::Byte},
    {array::ElementType::Bool, c10::ScalarType::Bool},
}};

SafeTensors::Content tensorsOf(array::SafeTensorsImage::Content content) {
    SafeTensors::Content out;
    out.metadata = std::move(content.metadata);
    for (auto& [name, array] : content.arrays) {
        out.tensors.emplace(name, SafeTensors::toTensor(array));
        array.bytes = std::string(); // at most one copy of the data at a time
    }
    return out;
}

array::SafeTensorsImage::Arrays arraysOf(const SafeTensors::Tensors& tensors) {
    array::SafeTensorsImage::Arrays arrays;
    for (const auto& [name, tensor] : tensors)
        arrays.emplace(name, SafeTensors::toArray(tensor, name));
    return arrays;
}

} // namespace

array::HostArray SafeTensors::toArray(const at::Tensor& tensor, const std::string& name) {
    if (!tensor.defined())
        throw std::invalid_argument("cannot store undefined tensor '" + name + "'");
    for (const auto& [element, scalar] : kTypes) {
        if (scalar != tensor.scalar_type())
            continue;
        const at::Tensor data = tensor.detach().to(at::kCPU).contiguous();
        array::HostArray out;
        out.type = element;
        out.shape = data.sizes().vec();
        out.bytes.assign(static_cast<const char*>(data.data_ptr()),
                         static_cast<std::size_t>(data.numel()) * data.element_size());
        return out;
    }
    throw std::invalid_argument("cannot store tensor '" + name + "' of dtype " +
                                std::string(c10::toString(tensor.scalar_type())) +
                                " (supported: " + array::SafeTensorsHeader::supportedDtypeNames() + ")");
}

at::Tensor SafeTensors::toTensor(const array::HostArray& array) {
    for (const auto& [element, scalar] : kTypes) {
        if (element != array.type)
            continue;
        at::Tensor tensor = torch::empty(array.shape, torch::TensorOptions().dtype(scalar));
        if (static_cast<std::size_t>(tensor.numel()) * tensor.element_size() != array.bytes.size())
            throw std::invalid_argument("an array whose bytes do not match its shape");
        if (!array.bytes.empty())
            std::memcpy(tensor.data_ptr(), array.bytes.data(), array.bytes.size());
        return tensor;
    }
    throw std::invalid_argument("an array of an unknown element type");
}

SafeTensors::Content SafeTensors::read(const std::filesystem::path& path) {
    return tensorsOf(array::SafeTensorsImage::read(path));
}

SafeTensors::Content SafeTensors::decode(std::string_view bytes, const std::string& origin) {
    return tensorsOf(array::SafeTensorsImage::decode(bytes, origin));
}

void SafeTensors::write(const std::filesystem::path& path, const Tensors& tensors, const Metadata& metadata) {
    array::SafeTensorsImage::write(path, arraysOf(tensors), metadata);
}

std::string SafeTensors::encode(const Tensors& tensors, const Metadata& metadata) {
    return array::SafeTensorsImage::encode(arraysOf(tensors), metadata);
}

} // namespace sahaj::model
