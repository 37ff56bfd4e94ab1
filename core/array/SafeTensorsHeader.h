#pragma once

#include "core/array/ElementType.h"

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace sahaj::array {

// The start of a safetensors image (the format is described in SafeTensors.h): the 8-byte header length
// and the JSON header, parsed and checked against the size of the data buffer that follows before any
// tensor is allocated or any data read. Plain C++: the structure of a hostile file is checked by code that
// the fuzz build compiles on its own (docs/fuzzing.md), and that the engine uses without libtorch.
class SafeTensorsHeader {
public:
    struct Dtype {
        const char* name;
        ElementType type;
        std::uint64_t size;
    };
    // One tensor as the header describes it, once checked.
    struct Entry {
        std::string name;
        const Dtype* dtype = nullptr;
        std::vector<std::int64_t> shape;
        std::uint64_t begin = 0; // byte range in the data buffer
        std::uint64_t end = 0;
    };

    // Where an image is read from, sequentially.
    class Source {
    public:
        virtual ~Source() = default;
        // False when fewer than `bytes` bytes are left.
        virtual bool read(void* into, std::uint64_t bytes) = 0;
    };
    class MemorySource : public Source {
    public:
        explicit MemorySource(std::string_view bytes) : bytes_(bytes) {}
        bool read(void* into, std::uint64_t bytes) override;

    private:
        std::string_view bytes_;
        std::size_t position_ = 0;
    };

    // A header longer than this is refused before anything is allocated for it (the Rust reference
    // implementation has the same limit).
    static constexpr std::uint64_t kMaxHeaderSize = 100'000'000;

    // Sorted by byte range: the order the data buffer holds them in, which they tile exactly.
    std::vector<Entry> entries;
    std::map<std::string, std::string> metadata;
    std::uint64_t dataSize = 0;

    // Reads the header length and the header from the start of `source`, an image of `totalSize` bytes,
    // leaving the source at the start of the data buffer. Throws std::runtime_error starting with `fail`
    // for every problem SafeTensors::read lists.
    static SafeTensorsHeader read(Source& source, std::uint64_t totalSize, const std::string& fail);

    // Supported dtypes (F64 F32 F16 BF16 I64 I32 I16 I8 U8 BOOL); null for any other.
    static const Dtype* dtypeByName(std::string_view name);
    static const Dtype* dtypeByType(ElementType type);
    // "F64 F32 ...": for error messages.
    static std::string supportedDtypeNames();
};

} // namespace sahaj::array
