#include "core/array/SafeTensorsHeader.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cstring>
#include <optional>
#include <set>
#include <stdexcept>

namespace sahaj::array {

namespace {

constexpr std::array<SafeTensorsHeader::Dtype, 10> kDtypes{{
    {"F64", ElementType::F64, 8},
    {"F32", ElementType::F32, 4},
    {"F16", ElementType::F16, 2},
    {"BF16", ElementType::BF16, 2},
    {"I64", ElementType::I64, 8},
    {"I32", ElementType::I32, 4},
    {"I16", ElementType::I16, 2},
    {"I8", ElementType::I8, 1},
    {"U8", ElementType::U8, 1},
    {"BOOL", ElementType::Bool, 1},
}};

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
    } catch (const nlohmann::json::exception& e) {
        // Syntax errors, and numbers no double holds (out_of_range: "1e400"), which are not parse_errors.
        throw std::runtime_error(fail + "the header is not valid JSON (" + e.what() + ")");
    }
    if (duplicate)
        throw std::runtime_error(fail + "the header names '" + *duplicate + "' more than once");
    if (!header.is_object())
        throw std::runtime_error(fail + "the header must be a JSON object, got " + header.type_name());
    return header;
}

SafeTensorsHeader::Entry parseEntry(const std::string& name, const nlohmann::json& value,
                                    const std::string& fail) {
    const std::string where = "tensor '" + name + "': ";
    if (!value.is_object())
        throw std::runtime_error(fail + where + "entry must be an object, got " + value.dump());
    SafeTensorsHeader::Entry entry;
    entry.name = name;
    const auto dtype = value.find("dtype");
    if (dtype == value.end() || !dtype->is_string())
        throw std::runtime_error(fail + where + "missing or non-string \"dtype\"");
    entry.dtype = SafeTensorsHeader::dtypeByName(dtype->get<std::string>());
    if (!entry.dtype)
        throw std::runtime_error(fail + where + "unknown dtype '" + dtype->get<std::string>() +
                                 "' (supported: " + SafeTensorsHeader::supportedDtypeNames() + ")");
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

std::map<std::string, std::string> parseMetadata(const nlohmann::json& value, const std::string& fail) {
    if (!value.is_object())
        throw std::runtime_error(fail + "\"__metadata__\" must be an object of strings, got " + value.dump());
    std::map<std::string, std::string> metadata;
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
void checkLayout(std::vector<SafeTensorsHeader::Entry>& entries, std::uint64_t dataSize,
                 const std::string& fail) {
    std::sort(entries.begin(), entries.end(),
              [](const SafeTensorsHeader::Entry& a, const SafeTensorsHeader::Entry& b) {
                  return a.begin != b.begin ? a.begin < b.begin : a.end < b.end;
              });
    std::uint64_t expected = 0;
    const SafeTensorsHeader::Entry* previous = nullptr;
    for (const SafeTensorsHeader::Entry& e : entries) {
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

bool SafeTensorsHeader::MemorySource::read(void* into, std::uint64_t bytes) {
    if (bytes == 0)
        return true; // nothing to copy; memcpy would not accept the null pointers of empty buffers
    if (bytes > bytes_.size() - position_)
        return false;
    std::memcpy(into, bytes_.data() + position_, bytes);
    position_ += bytes;
    return true;
}

SafeTensorsHeader SafeTensorsHeader::read(Source& source, std::uint64_t totalSize, const std::string& fail) {
    if (totalSize < 8)
        throw std::runtime_error(fail + "truncated: " + std::to_string(totalSize) +
                                 " bytes, less than the 8-byte header length");
    std::array<unsigned char, 8> lengthBytes{};
    if (!source.read(lengthBytes.data(), 8))
        throw std::runtime_error(fail + "cannot read the header length");
    std::uint64_t headerSize = 0;
    for (int i = 7; i >= 0; --i)
        headerSize = (headerSize << 8) | lengthBytes[static_cast<std::size_t>(i)];
    if (headerSize > kMaxHeaderSize)
        throw std::runtime_error(fail + "header length " + std::to_string(headerSize) +
                                 " exceeds the limit of " + std::to_string(kMaxHeaderSize) + " bytes");
    if (headerSize > totalSize - 8)
        throw std::runtime_error(fail + "header length " + std::to_string(headerSize) +
                                 " is larger than the rest of the file (" + std::to_string(totalSize - 8) +
                                 " bytes): truncated or not a safetensors file");
    std::string headerText(headerSize, '\0');
    if (headerSize > 0 && !source.read(headerText.data(), headerSize))
        throw std::runtime_error(fail + "cannot read the header");

    const nlohmann::json json = parseHeader(headerText, fail);
    SafeTensorsHeader header;
    for (const auto& [name, value] : json.items()) {
        if (name == "__metadata__")
            header.metadata = parseMetadata(value, fail);
        else
            header.entries.push_back(parseEntry(name, value, fail));
    }
    header.dataSize = totalSize - 8 - headerSize;
    checkLayout(header.entries, header.dataSize, fail);
    return header;
}

const SafeTensorsHeader::Dtype* SafeTensorsHeader::dtypeByName(std::string_view name) {
    for (const auto& d : kDtypes)
        if (name == d.name)
            return &d;
    return nullptr;
}

const SafeTensorsHeader::Dtype* SafeTensorsHeader::dtypeByType(ElementType type) {
    for (const auto& d : kDtypes)
        if (type == d.type)
            return &d;
    return nullptr;
}

std::string SafeTensorsHeader::supportedDtypeNames() {
    std::string names;
    for (const auto& d : kDtypes)
        names += (names.empty() ? "" : " ") + std::string(d.name);
    return names;
}

} // namespace sahaj::array
