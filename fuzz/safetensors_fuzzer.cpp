// Fuzz target: a safetensors image as SafeTensors::read and SafeTensors::decode see it (a file, or state
// downloaded from a peer): SafeTensorsHeader::read checks the header length, the JSON header, every entry
// and the layout before any tensor is allocated. For an accepted image, the tensors' bytes are then read
// the way SafeTensors reads them: the layout must account for every byte of the data buffer.
#include "core/array/SafeTensorsHeader.h"
#include "fuzz/InputVerdict.h"

#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <string_view>

using sahaj::array::SafeTensorsHeader;
using sahaj::fuzz::InputVerdict;

namespace {

// Elements in a shape, as at::empty counts them: a dimension of 0 makes any other size harmless.
std::uint64_t elementsIn(const SafeTensorsHeader::Entry& entry) {
    std::uint64_t count = 1;
    bool overflow = false;
    for (const std::int64_t dim : entry.shape) {
        if (dim < 0)
            std::abort();
        if (dim == 0)
            return 0;
        overflow = overflow || __builtin_mul_overflow(count, static_cast<std::uint64_t>(dim), &count);
    }
    if (overflow)
        std::abort();
    return count;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    SafeTensorsHeader::MemorySource source(bytes);
    SafeTensorsHeader header;
    try {
        header = SafeTensorsHeader::read(source, size, "fuzz input: ");
    } catch (const std::runtime_error& e) {
        InputVerdict::refused(e);
        return 0;
    }
    InputVerdict::accepted();
    std::string buffer;
    for (const SafeTensorsHeader::Entry& entry : header.entries) {
        const std::uint64_t bytesOfEntry = entry.end - entry.begin;
        if (entry.dtype == nullptr || elementsIn(entry) * entry.dtype->size != bytesOfEntry)
            std::abort();
        buffer.resize(bytesOfEntry);
        if (bytesOfEntry > 0 && !source.read(buffer.data(), bytesOfEntry))
            std::abort();
    }
    char extra = 0;
    if (source.read(&extra, 1))
        std::abort(); // bytes after the last tensor: the layout check should have refused them
    return 0;
}
