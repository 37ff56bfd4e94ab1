#pragma once

#include "core/array/HostArray.h"
#include "core/array/SafeTensorsHeader.h"

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>

namespace sahaj::array {

// The safetensors format (github.com/huggingface/safetensors) over host arrays, in plain C++: an 8-byte
// little-endian header length N, N bytes of JSON mapping each tensor name to {"dtype", "shape",
// "data_offsets": [begin, end]} plus an optional "__metadata__" string map, then the data buffer, the
// tensors packed without holes. Hugging Face's model.safetensors, the optimiser state and the state a peer
// sends use it. model::SafeTensors reads and writes the same images as libtorch tensors.
class SafeTensorsImage {
public:
    // std::map: names are unique and come out sorted, the order the writer stores them in.
    using Arrays = std::map<std::string, HostArray>;
    using Metadata = std::map<std::string, std::string>;
    struct Content {
        Arrays arrays;
        Metadata metadata;
    };

    // Throws std::runtime_error naming the file and the problem: truncated file, header length beyond the
    // file or the limit, header not JSON or not an object, duplicate names, unknown dtype, negative or
    // non-integer dimensions, a byte range that does not match the shape, ranges that overlap, leave holes,
    // run past the data or leave bytes after it, metadata that is not a string map. SafeTensorsHeader
    // checks all of that before any array is allocated.
    static Content read(const std::filesystem::path& path);

    // Writes atomically (temporary file + rename), sorted by name; the header is padded with spaces to a
    // multiple of 8 bytes so that the data starts aligned. Throws std::invalid_argument for an array whose
    // bytes do not match its shape or a name "__metadata__", std::runtime_error for I/O failures.
    static void write(const std::filesystem::path& path, const Arrays& arrays, const Metadata& metadata = {});

    // The same format in memory, for state sent over the network: encode() gives the bytes write() would
    // store; decode() checks them exactly as read() checks a file (`origin` names them in errors).
    static std::string encode(const Arrays& arrays, const Metadata& metadata = {});
    static Content decode(std::string_view bytes, const std::string& origin);
};

} // namespace sahaj::array
