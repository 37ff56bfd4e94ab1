#include "core/array/SafeTensorsImage.h"

#include "core/array/AtomicFile.h"

#include <nlohmann/json.hpp>

#include <bit>
#include <cstdio>
#include <stdexcept>
#include <vector>

namespace sahaj::array {

// The format stores little-endian data and bytes are copied as they are.
static_assert(std::endian::native == std::endian::little, "safetensors I/O assumes a little-endian host");

namespace {

class FileCloser {
public:
    explicit FileCloser(std::FILE* file) : file_(file) {}
    ~FileCloser() {
        if (file_)
            std::fclose(file_);
    }
    FileCloser(const FileCloser&) = delete;
    FileCloser& operator=(const FileCloser&) = delete;

private:
    std::FILE* file_;
};

// A file read sequentially: the whole image never has to be in memory twice.
class FileSource : public SafeTensorsHeader::Source {
public:
    explicit FileSource(std::FILE* file) : file_(file) {}
    bool read(void* into, std::uint64_t bytes) override { return std::fread(into, 1, bytes, file_) == bytes; }

private:
    std::FILE* file_;
};

// Parses a whole image of `totalSize` bytes from `source`; `fail` prefixes every error message.
SafeTensorsImage::Content parseImage(SafeTensorsHeader::Source& source, std::uint64_t totalSize,
                                     const std::string& fail) {
    const SafeTensorsHeader header = SafeTensorsHeader::read(source, totalSize, fail);
    SafeTensorsImage::Content content;
    content.metadata = header.metadata;
    // The ranges are contiguous and sorted, so one sequential pass reads every array into its storage.
    for (const SafeTensorsHeader::Entry& e : header.entries) {
        HostArray array;
        array.type = e.dtype->type;
        array.shape = e.shape;
        array.bytes.resize(e.end - e.begin);
        if (!array.bytes.empty() && !source.read(array.bytes.data(), array.bytes.size()))
            throw std::runtime_error(fail + "truncated while reading tensor '" + e.name + "'");
        content.arrays.emplace(e.name, std::move(array));
    }
    return content;
}

// The 8-byte length and the header of an image.
std::string headOf(const SafeTensorsImage::Arrays& arrays, const SafeTensorsImage::Metadata& metadata,
                   const std::string& where) {
    // ordered_json: "__metadata__" first, then the tensors in name order, as the reference writer does.
    nlohmann::ordered_json header = nlohmann::ordered_json::object();
    if (!metadata.empty())
        header["__metadata__"] = metadata;
    std::uint64_t offset = 0;
    for (const auto& [name, array] : arrays) {
        if (name == "__metadata__")
            throw std::invalid_argument("cannot store a tensor named '__metadata__' in " + where);
        const SafeTensorsHeader::Dtype* dtype = SafeTensorsHeader::dtypeByType(array.type);
        const std::int64_t elements = array.elements();
        if (!dtype || elements < 0 ||
            array.bytes.size() != static_cast<std::uint64_t>(elements) * dtype->size)
            throw std::invalid_argument("cannot store tensor '" + name + "' in " + where +
                                        ": its bytes do not match its shape");
        const std::uint64_t bytes = array.bytes.size();
        header[name] = {
            {"dtype", dtype->name}, {"shape", array.shape}, {"data_offsets", {offset, offset + bytes}}};
        offset += bytes;
    }
    std::string headerText = header.dump();
    // Spaces are valid trailing JSON whitespace; they make the data start on an 8-byte boundary.
    headerText.append((8 - headerText.size() % 8) % 8, ' ');
    std::string head;
    for (std::size_t i = 0; i < 8; ++i)
        head.push_back(static_cast<char>((static_cast<std::uint64_t>(headerText.size()) >> (8 * i)) & 0xff));
    return head + headerText;
}

} // namespace

SafeTensorsImage::Content SafeTensorsImage::read(const std::filesystem::path& path) {
    const std::string fail = "safetensors file '" + path.string() + "': ";
    std::error_code error;
    const std::uint64_t fileSize = std::filesystem::file_size(path, error);
    if (error)
        throw std::runtime_error(fail + "cannot read: " + error.message());
    std::FILE* file = std::fopen(path.string().c_str(), "rb");
    if (!file)
        throw std::runtime_error(fail + "cannot open");
    FileCloser closer(file);
    FileSource source(file);
    return parseImage(source, fileSize, fail);
}

SafeTensorsImage::Content SafeTensorsImage::decode(std::string_view bytes, const std::string& origin) {
    SafeTensorsHeader::MemorySource source(bytes);
    return parseImage(source, bytes.size(), "safetensors data " + origin + ": ");
}

void SafeTensorsImage::write(const std::filesystem::path& path, const Arrays& arrays,
                             const Metadata& metadata) {
    const std::string head = headOf(arrays, metadata, "'" + path.string() + "'");
    AtomicFile::write(path, [&](const AtomicFile::Sink& sink) {
        sink(head);
        for (const auto& [name, array] : arrays)
            sink(array.bytes);
    });
}

std::string SafeTensorsImage::encode(const Arrays& arrays, const Metadata& metadata) {
    std::string bytes = headOf(arrays, metadata, "memory");
    std::size_t total = bytes.size();
    for (const auto& [name, array] : arrays)
        total += array.bytes.size();
    bytes.reserve(total);
    for (const auto& [name, array] : arrays)
        bytes += array.bytes;
    return bytes;
}

} // namespace sahaj::array
