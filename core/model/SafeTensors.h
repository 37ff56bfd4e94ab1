#pragma once

#include "core/array/SafeTensorsImage.h"

#include <ATen/core/Tensor.h>

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>

namespace sahaj::model {

// The safetensors format (array::SafeTensorsImage, which reads and checks it) as libtorch tensors, for the
// model's side: Hugging Face's model.safetensors and the local trainer's optimiser state. Supported dtypes:
// F64 F32 F16 BF16 I64 I32 I16 I8 U8 BOOL.
class SafeTensors {
public:
    // std::map: names are unique and come out sorted, the order the writer stores them in.
    using Tensors = std::map<std::string, at::Tensor>;
    using Metadata = std::map<std::string, std::string>;
    struct Content {
        Tensors tensors; // CPU, contiguous, in the file's dtype
        Metadata metadata;
    };

    // A header longer than this is refused before anything is allocated for it.
    static constexpr std::uint64_t kMaxHeaderSize = array::SafeTensorsHeader::kMaxHeaderSize;

    // Throws std::runtime_error naming the file and the problem: truncated file, header length beyond the
    // file or the limit, header not JSON or not an object, duplicate names, unknown dtype, negative or
    // non-integer dimensions, a byte range that does not match the shape, ranges that overlap, leave holes,
    // run past the data or leave bytes after it, metadata that is not a string map. SafeTensorsHeader
    // checks all of that before any tensor is allocated.
    static Content read(const std::filesystem::path& path);

    // Writes atomically (temporary file + rename). Tensors may live on any device and have any layout;
    // they are stored contiguous, sorted by name; the header is padded with spaces to a multiple of 8
    // bytes so that the data starts aligned. Throws std::invalid_argument for an undefined tensor or an
    // unsupported dtype, std::runtime_error for I/O failures.
    static void write(const std::filesystem::path& path, const Tensors& tensors,
                      const Metadata& metadata = {});

    // The same format in memory, for state sent over the network: encode() gives the bytes write() would
    // store; decode() checks them exactly as read() checks a file (`origin` names them in errors).
    static std::string encode(const Tensors& tensors, const Metadata& metadata = {});
    static Content decode(std::string_view bytes, const std::string& origin);

    // Between tensors and host arrays (a copy each way). toArray throws std::invalid_argument for an
    // undefined tensor or an unsupported dtype, naming `name`.
    static array::HostArray toArray(const at::Tensor& tensor, const std::string& name);
    static at::Tensor toTensor(const array::HostArray& array);
};

} // namespace sahaj::model
