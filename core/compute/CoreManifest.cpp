#include "core/compute/CoreManifest.h"

#include "core/compute/DottedVersion.h"

#include <nlohmann/json.hpp>

#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>

namespace sahaj::compute {

namespace {

[[noreturn]] void fail(const std::string& origin, const std::string& problem) {
    throw std::runtime_error("core manifest " + origin + ": " + problem);
}

const nlohmann::json* optionalField(const nlohmann::json& object, const char* key) {
    const auto it = object.find(key);
    return it == object.end() || it->is_null() ? nullptr : &*it;
}

std::string stringField(const nlohmann::json& object, const char* key, const std::string& origin) {
    const nlohmann::json* value = optionalField(object, key);
    if (!value || !value->is_string() || value->get<std::string>().empty() ||
        value->get<std::string>().size() > 256)
        fail(origin, std::string("\"") + key + "\" must be a non-empty string of at most 256 characters");
    return value->get<std::string>();
}

// A path the manifest gives relative to the core's folder, made absolute; it may not leave the folder.
std::filesystem::path pathInFolder(const nlohmann::json& object, const char* key,
                                   const std::filesystem::path& folder, const std::string& origin) {
    const std::filesystem::path relative(stringField(object, key, origin));
    if (relative.is_absolute() || relative.lexically_normal().string().rfind("..", 0) == 0)
        fail(origin, std::string("\"") + key + "\" must be a path inside the core's folder");
    return (folder / relative).lexically_normal();
}

} // namespace

CoreManifest CoreManifest::parse(std::string_view json, const std::filesystem::path& folder,
                                 const std::string& origin) {
    if (json.size() > 64 * 1024)
        fail(origin, "larger than 64 KiB");
    nlohmann::json object;
    try {
        object = nlohmann::json::parse(json);
    } catch (const nlohmann::json::exception&) {
        fail(origin, "not valid JSON");
    }
    if (!object.is_object())
        fail(origin, "not a JSON object");
    static const std::set<std::string> known{
        "name",       "device",        "executable", "min_compute_capability",
        "min_driver", "min_memory_mb", "preference", "tools"};
    for (const auto& [key, value] : object.items())
        if (!known.count(key))
            fail(origin, "unknown field \"" + key + "\"");
    CoreManifest manifest;
    manifest.name = stringField(object, "name", origin);
    manifest.device = stringField(object, "device", origin);
    if (manifest.device != "cpu" && manifest.device != "cuda")
        fail(origin, "\"device\" must be \"cpu\" or \"cuda\", not \"" + manifest.device + "\"");
    manifest.executable = pathInFolder(object, "executable", folder, origin);
    if (optionalField(object, "tools"))
        manifest.tools = pathInFolder(object, "tools", folder, origin);
    if (const nlohmann::json* capability = optionalField(object, "min_compute_capability")) {
        const auto version =
            capability->is_string() ? DottedVersion::parse(capability->get<std::string>()) : std::nullopt;
        if (!version || version->parts.size() != 2)
            fail(origin, "\"min_compute_capability\" must be \"MAJOR.MINOR\"");
        manifest.minComputeMajor = version->parts[0];
        manifest.minComputeMinor = version->parts[1];
    }
    if (const nlohmann::json* driver = optionalField(object, "min_driver")) {
        if (!driver->is_string() || !DottedVersion::parse(driver->get<std::string>()))
            fail(origin, "\"min_driver\" must be a dotted version such as \"525.60\"");
        manifest.minDriver = driver->get<std::string>();
    }
    if (const nlohmann::json* memory = optionalField(object, "min_memory_mb")) {
        if (!memory->is_number_unsigned() || memory->get<std::uint64_t>() > (1ull << 30))
            fail(origin, "\"min_memory_mb\" must be a whole number of MiB");
        manifest.minMemoryBytes = memory->get<std::uint64_t>() << 20;
    }
    if (const nlohmann::json* preference = optionalField(object, "preference")) {
        if (!preference->is_number_integer() || preference->get<std::int64_t>() < -1000 ||
            preference->get<std::int64_t>() > 1000)
            fail(origin, "\"preference\" must be a whole number from -1000 to 1000");
        manifest.preference = preference->get<int>();
    }
    if (manifest.device == "cpu" && (manifest.minComputeMajor || !manifest.minDriver.empty()))
        fail(origin, "a cpu core names no GPU requirements");
    return manifest;
}

std::vector<CoreManifest> CoreManifest::discover(const std::vector<std::filesystem::path>& roots,
                                                 std::vector<std::string>& problems) {
    std::vector<CoreManifest> found;
    std::set<std::string> names;
    for (const std::filesystem::path& root : roots) {
        std::error_code error;
        if (!std::filesystem::is_directory(root, error))
            continue;
        for (const auto& entry : std::filesystem::directory_iterator(root, error)) {
            const std::filesystem::path file = entry.path() / "core.json";
            if (!std::filesystem::is_regular_file(file, error))
                continue;
            try {
                std::ifstream in(file, std::ios::binary);
                std::ostringstream text;
                text << in.rdbuf();
                CoreManifest manifest = parse(text.str(), entry.path(), file.string());
                if (!names.insert(manifest.name).second)
                    throw std::runtime_error("core manifest " + file.string() + ": another core is named \"" +
                                             manifest.name + "\"");
                found.push_back(std::move(manifest));
            } catch (const std::exception& e) {
                problems.push_back(e.what());
            }
        }
    }
    return found;
}

} // namespace sahaj::compute
