#include "core/model/SafeTensors.h"

#include "core/model/AtomicFile.h"

#include <nlohmann/json.hpp>
#include <torch/torch.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <set>
#include <stdexcept>
#include <string_view>
#include <vector>

namespace sahaj::model {

// The format stores little-endian data and we copy bytes straight into tensors.
static_assert(std::endian::native == std::endian::little, "safetensors I/O assumes a little-endian host");

namespace {

struct DtypeInfo {
    const char* name;
    c10::ScalarType type;
    std::uint64_t size;
};

constexpr std::array<DtypeInfo, 10> kDtypes{{
    {"F64", c10::ScalarType::Double, 8},
    {"F32", c10::ScalarType::Float, 4},
    {"F16", c10::ScalarType::Half, 2},
    {"BF16", c10::ScalarType::BFloat16, 2},
    {"I64", c10::ScalarType::Long, 8},
    {"I32", c10::ScalarType::Int, 4},
    {"I16", c10::ScalarType::Short, 2},
    {"I8", c10::ScalarType::Char, 1},
    {"U8", c10::ScalarType::Byte, 1},
    {"BOOL", c10::ScalarType::Bool, 1},
}};

const DtypeInfo* dtypeByName(const std::string& name) {
    for (const auto& d : kDtypes)
        if (name == d.name)
            return &d;
    return nullptr;
}

const DtypeInfo* dtypeByType(c10::ScalarType type) {
    for (const auto& d : kDtypes)
        if (type == d.type)
            return &d;
    return nullptr;
}

std::string supportedDtypeNames() {
    std::string names;
    for (const auto& d : kDtypes)
        names += (names.empty() ? "" : " ") + std::string(d.name);
    return names;
}

// One tensor's header entry once validated.
struct Entry {
    std::string name;
    const DtypeInfo* dtype = nullptr;
    std::vector<std::int64_t> shape;
    std::uint64_t begin = 0;
    std::uint64_t end = 0;
};

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

// Reads a header-entry array of non-negative integers; `what` names it in errors.
std::vector<std::uint64_t> unsignedArray(const nlohmann::json& value, const std::string& what,
                                         const std::string& fail) {
    if (!value.is_array())
        throw std::runtime_error(fail + what + " must be an array, got " + value.dump());
    std::vector<std::uint64_t> out;
    for (const auto& item : value) {
        if (!item.is_number_integer())
            throw std::runtime_error(fail + what + " must hold integers, got " + value.dump());
        if (item.is_number_unsigned()) {
            out.push_back(item.get<std::uint64_t>());
            continue;
        }
        const auto signedValue = item.get<std::int64_t>();
        if (signedValue < 0)
            throw std::runtime_error(fail + what + " has a negative value " + std::to_string(signedValue));
        out.push_back(static_cast<std::uint64_t>(signedValue));
    }
    return out;
}

// Parses the JSON header, refusing duplicate keys at any depth: nlohmann::json would silently keep the
// last value, and two tensors claiming one name make a file whose meaning depends on the reader.
nlohmann::json parseHeader(const std::string& text, const std::string& fail) {
    std::vector<std::set<std::string>> keysPerObject;
    std::optional<std::string> duplicate;
    const auto callback = [&](int, nlohmann::json::parse_event_t event, nlohmann::json& parsed) {
        switch (event) {
        case nlohmann::json::parse_event_t::object_start:
            keysPerObject.emplace_back();
            break;
        case nlohmann::json::parse_event_t::object_end:
            if (!keysPerObject.empty())
                keysPerObject.pop_back();
            break;
        case nlohmann::json::parse_event_t::key:
            if (!keysPerObject.empty() && !keysPerObject.back().insert(parsed.get<std::string>()).second &&
                !duplicate)
                duplicate = parsed.get<std::string>();
            break;
        default:
            break;
        }
        return true;
    };
    nlohmann::json header;
    try {
        header = nlohmann::json::parse(text, callback);
    } catch (const nlohmann::json::parse_error& e) {
        throw std::runtime_error(fail + "the header is not valid JSON (" + e.what() + ")");
    }
    if (duplicate)
        throw std::runtime_error(fail + "the header names '" + *duplicate + "' more than once");
    if (!header.is_object())
        throw std::runtime_error(fail + "the header must be a JSON object, got " + header.type_name());
    return header;
}

Entry parseEntry(const std::string& name, const nlohmann::json& value, const std::string& fail) {
    const std::string where = "tensor '" + name + "': ";
    if (!value.is_object())
        throw std::runtime_error(fail + where + "entry must be an object, got " + value.dump());
    Entry entry;
    entry.name = name;
    const auto dtype = value.find("dtype");
    if (dtype == value.end() || !dtype->is_string())
        throw std::runtime_error(fail + where + "missing or non-string \"dtype\"");
    entry.dtype = dtypeByName(dtype->get<std::string>());
    if (!entry.dtype)
        throw std::runtime_error(fail + where + "unknown dtype '" + dtype->get<std::string>() +
                                 "' (supported: " + supportedDtypeNames() + ")");
    const auto shape = value.find("shape");
    if (shape == value.end())
        throw std::runtime_error(fail + where + "missing \"shape\"");
    if (shape->is_array())
        for (const auto& dim : *shape)
            if (dim.is_number_integer() && !dim.is_number_unsigned() && dim.get<std::int64_t>() < 0)
                throw std::runtime_error(fail + where + "negative dimension in shape " + shape->dump());
    std::uint64_t bytes = entry.dtype->size;
    bool overflow = false;
    for (const std::uint64_t dim : unsignedArray(*shape, where + "shape", fail)) {
        if (dim > static_cast<std::uint64_t>(INT64_MAX))
            throw std::runtime_error(fail + where + "dimension " + std::to_string(dim) + " is too large");
        entry.shape.push_back(static_cast<std::int64_t>(dim));
        overflow = overflow || __builtin_mul_overflow(bytes, dim, &bytes);
    }
    const auto offsets = value.find("data_offsets");
    if (offsets == value.end())
        throw std::runtime_error(fail + where + "missing \"data_offsets\"");
    const auto range = unsignedArray(*offsets, where + "data_offsets", fail);
    if (range.size() != 2)
        throw std::runtime_error(fail + where + "data_offsets must have two entries, got " + offsets->dump());
    entry.begin = range[0];
    entry.end = range[1];
    if (entry.end < entry.begin)
        throw std::runtime_error(fail + where + "data_offsets " + offsets->dump() + " end before they begin");
    if (overflow || bytes != entry.end - entry.begin)
        throw std::runtime_error(
            fail + where + "shape " + shape->dump() + " of dtype " + entry.dtype->name + " needs " +
            (overflow ? std::string("more than 2^64") : std::to_string(bytes)) + " bytes but data_offsets " +
            offsets->dump() + " span " + std::to_string(entry.end - entry.begin));
    return entry;
}

SafeTensors::Metadata parseMetadata(const nlohmann::json& value, const std::string& fail) {
    if (!value.is_object())
        throw std::runtime_error(fail + "\"__metadata__\" must be an object of strings, got " + value.dump());
    SafeTensors::Metadata metadata;
    for (const auto& [key, item] : value.items()) {
        if (!item.is_string())
            throw std::runtime_error(fail + "\"__metadata__\" value of '" + key + "' must be a string, got " +
                                     item.dump());
        metadata.emplace(key, item.get<std::string>());
    }
    return metadata;
}

// Checks that the byte ranges tile the data buffer exactly: no overlap, no hole, nothing past the end and
// nothing left over. Sorts the entries by offset, the order the data is then read in.
void checkLayout(std::vector<Entry>& entries, std::uint64_t dataSize, const std::string& fail) {
    std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
        return a.begin != b.begin ? a.begin < b.begin : a.end < b.end;
    });
    std::uint64_t expected = 0;
    const Entry* previous = nullptr;
    for (const Entry& e : entries) {
        const std::string range =
            std::string("[") + std::to_string(e.begin) + ", " + std::to_string(e.end) + "]";
        if (e.end > dataSize)
            throw std::runtime_error(fail + "tensor '" + e.name + "' data_offsets " + range +
                                     " run past the data buffer of " + std::to_string(dataSize) + " bytes");
        if (e.begin < expected)
            throw std::runtime_error(fail + "tensor '" + e.name + "' data_offsets " + range +
                                     " overlap tensor '" + previous->name + "'");
        if (e.begin > expected)
            throw std::runtime_error(fail + "tensor '" + e.name + "' data_offsets " + range +
                                     " leave a hole of " + std::to_string(e.begin - expected) +
                                     " bytes before them");
        expected = e.end;
        if (e.end > e.begin || !previous)
            previous = &e;
    }
    if (expected != dataSize)
        throw std::runtime_error(fail + std::to_string(dataSize - expected) +
                                 " bytes follow the last tensor's data (the data buffer has " +
                                 std::to_string(dataSize) + " bytes, the tensors cover " +
                                 std::to_string(expected) + ")");
}

} // namespace

namespace {

// Where a safetensors image is read from: a file, read sequentially, or bytes already in memory.
class ByteSource {
public:
    virtual ~ByteSource() = default;
    virtual bool read(void* into, std::uint64_t bytes) = 0;
};

class FileSource : public ByteSource {
public:
    explicit FileSource(std::FILE* file) : file_(file) {}
    bool read(void* into, std::uint64_t bytes) override { return std::fread(into, 1, bytes, file_) == bytes; }

private:
    std::FILE* file_;
};

class MemorySource : public ByteSource {
public:
    explicit MemorySource(std::string_view bytes) : bytes_(bytes) {}
    bool read(void* into, std::uint64_t bytes) override {
        if (bytes > bytes_.size() - position_)
            return false;
        std::memcpy(into, bytes_.data() + position_, bytes);
        position_ += bytes;
        return true;
    }

private:
    std::string_view bytes_;
    std::size_t position_ = 0;
};

// Parses a whole image of `totalSize` bytes from `source`; `fail` prefixes every error message.
SafeTensors::Content parseImage(ByteSource& source, std::uint64_t totalSize, const std::string& fail) {
    if (totalSize < 8)
        throw std::runtime_error(fail + "truncated: " + std::to_string(totalSize) +
                                 " bytes, less than the 8-byte header length");
    std::array<unsigned char, 8> lengthBytes{};
    if (!source.read(lengthBytes.data(), 8))
        throw std::runtime_error(fail + "cannot read the header length");
    std::uint64_t headerSize = 0;
    for (int i = 7; i >= 0; --i)
        headerSize = (headerSize << 8) | lengthBytes[static_cast<std::size_t>(i)];
    if (headerSize > SafeTensors::kMaxHeaderSize)
        throw std::runtime_error(fail + "header length " + std::to_string(headerSize) +
                                 " exceeds the limit of " + std::to_string(SafeTensors::kMaxHeaderSize) + " bytes");
    if (headerSize > totalSize - 8)
        throw std::runtime_error(fail + "header length " + std::to_string(headerSize) +
                                 " is larger than the rest of the file (" + std::to_string(totalSize - 8) +
                                 " bytes): truncated or not a safetensors file");
    std::string headerText(headerSize, '\0');
    if (headerSize > 0 && !source.read(headerText.data(), headerSize))
        throw std::runtime_error(fail + "cannot read the header");

    const nlohmann::json header = parseHeader(headerText, fail);
    SafeTensors::Content content;
    std::vector<Entry> entries;
    for (const auto& [name, value] : header.items()) {
        if (name == "__metadata__")
            content.metadata = parseMetadata(value, fail);
        else
            entries.push_back(parseEntry(name, value, fail));
    }
    const std::uint64_t dataSize = totalSize - 8 - headerSize;
    checkLayout(entries, dataSize, fail);

    // The ranges are contiguous and sorted, so one sequential pass reads every tensor straight into its
    // storage: no second copy of a file in memory.
    for (const Entry& e : entries) {
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
        const DtypeInfo* dtype = dtypeByType(tensor.scalar_type());
        if (!dtype)
            throw std::invalid_argument("cannot store tensor '" + name + "' of dtype " +
                                        std::string(c10::toString(tensor.scalar_type())) + " in " + where +
                                        " (supported: " + supportedDtypeNames() + ")");
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
        layout.head.push_back(static_cast<char>((static_cast<std::uint64_t>(headerText.size()) >> (8 * i)) & 0xff));
    layout.head += headerText;
    return layout;
}

std::string_view bytesOf(const at::Tensor& data) {
    return {static_cast<const char*>(data.data_ptr()), static_cast<std::size_t>(data.numel()) * data.element_size()};
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
    MemorySource source(bytes);
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
