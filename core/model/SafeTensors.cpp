#include "core/model/SafeTensors.h"

#include "core/model/AtomicFile.h"
#include "core/model/SafeTensorsHeader.h"

#include <nlohmann/json.hpp>
#include <torch/torch.h>

#include <bit>
#include <cstdio>
#include <stdexcept>
#include <string_view>
#include <vector>

namespace sahaj::model {

// The format stores little-endian data and we copy bytes straight into tensors.
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

// A file read sequentially: the whole image never has to be in memory.
class FileSource : public SafeTensorsHeader::Source {
public:
    explicit FileSource(std::FILE* file) : file_(file) {}
    bool read(void* into, std::uint64_t bytes) override { return std::fread(into, 1, bytes, file_) == bytes; }

private:
    std::FILE* file_;
};

// Parses a whole image of `totalSize` bytes from `source`; `fail` prefixes every error message.
SafeTensors::Content parseImage(SafeTensorsHeader::Source& source, std::uint64_t totalSize,
                                const std::string& fail) {
    const SafeTensorsHeader header = SafeTensorsHeader::read(source, totalSize, fail);
    SafeTensors::Content content;
    content.metadata = header.metadata;

    // The ranges are contiguous and sorted, so one sequential pass reads every tensor straight into its
    // storage: no second copy of a file in memory.
    for (const SafeTensorsHeader::Entry& e : header.entries) {
        at::Tensor tensor = torch::empty(e.shape, torch::TensorOptions().dtype(e.dtype->type));
        const std::uint64_t bytes = e.end - e.begin;
        if (bytes > 0 && !source.read(tensor.data_ptr(), bytes))
            throw std::runtime_error(fail + "truncated while reading tensor '" + e.name + "'");
        content.tensors.emplace(e.name, std::move(tensor));
    }
    return content;
}

// The 8-byte length, the header and the tensors (contiguous CPU copies where needed) of an image.
struct Layout {
    std::string head; // length bytes + header text
    std::vector<at::Tensor> data;
};

Layout layoutOf(const SafeTensors::Tensors& tensors, const SafeTensors::Metadata& metadata,
                const std::string& where) {
    Layout layout;
    // ordered_json: "__metadata__" first, then the tensors in name order, as the reference writer does.
    nlohmann::ordered_json header = nlohmann::ordered_json::object();
    if (!metadata.empty())
        header["__metadata__"] = metadata;
    std::uint64_t offset = 0;
    for (const auto& [name, tensor] : tensors) {
        if (name == "__metadata__")
            throw std::invalid_argument("cannot store a tensor named '__metadata__' in " + where);
        if (!tensor.defined())
            throw std::invalid_argument("cannot store undefined tensor '" + name + "' in " + where);
        const SafeTensorsHeader::Dtype* dtype = SafeTensorsHeader::dtypeByType(tensor.scalar_type());
        if (!dtype)
            throw std::invalid_argument("cannot store tensor '" + name + "' of dtype " +
                                        std::string(c10::toString(tensor.scalar_type())) + " in " + where +
                                        " (supported: " + SafeTensorsHeader::supportedDtypeNames() + ")");
        // No copy for a tensor that is already a contiguous CPU tensor.
        at::Tensor data = tensor.detach().to(at::kCPU).contiguous();
        const std::uint64_t bytes = static_cast<std::uint64_t>(data.numel()) * dtype->size;
        header[name] = {{"dtype", dtype->name},
                        {"shape", data.sizes().vec()},
                        {"data_offsets", {offset, offset + bytes}}};
        offset += bytes;
        layout.data.push_back(std::move(data));
    }
    std::string headerText = header.dump();
    // Spaces are valid trailing JSON whitespace; they make the data start on an 8-byte boundary.
    headerText.append((8 - headerText.size() % 8) % 8, ' ');
    for (std::size_t i = 0; i < 8; ++i)
        layout.head.push_back(
            static_cast<char>((static_cast<std::uint64_t>(headerText.size()) >> (8 * i)) & 0xff));
    layout.head += headerText;
    return layout;
}

std::string_view bytesOf(const at::Tensor& data) {
    return {static_cast<const char*>(data.data_ptr()),
            static_cast<std::size_t>(data.numel()) * data.element_size()};
}

} // namespace

SafeTensors::Content SafeTensors::read(const std::filesystem::path& path) {
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

SafeTensors::Content SafeTensors::decode(std::string_view bytes, const std::string& origin) {
    SafeTensorsHeader::MemorySource source(bytes);
    return parseImage(source, bytes.size(), "safetensors data " + origin + ": ");
}

void SafeTensors::write(const std::filesystem::path& path, const Tensors& tensors, const Metadata& metadata) {
    const Layout layout = layoutOf(tensors, metadata, "'" + path.string() + "'");
    AtomicFile::write(path, [&](const AtomicFile::Sink& sink) {
        sink(layout.head);
        for (const at::Tensor& data : layout.data)
            sink(bytesOf(data));
    });
}

std::string SafeTensors::encode(const Tensors& tensors, const Metadata& metadata) {
    const Layout layout = layoutOf(tensors, metadata, "memory");
    std::size_t total = layout.head.size();
    for (const at::Tensor& data : layout.data)
        total += bytesOf(data).size();
    std::string bytes;
    bytes.reserve(total);
    bytes += layout.head;
    for (const at::Tensor& data : layout.data)
        bytes += bytesOf(data);
    return bytes;
}

} // namespace sahaj::model
