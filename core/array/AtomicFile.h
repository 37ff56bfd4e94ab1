#pragma once

#include <filesystem>
#include <functional>
#include <string_view>

namespace sahaj::array {

// Replaces a file all at once: the content goes to a temporary file in the same directory, is flushed to
// the disk, and is renamed over the target, so a crash or a full disk leaves either the old file or the
// new one, never a torn mix (a half-written checkpoint would poison every later resume).
class AtomicFile {
public:
    // Calls produce(sink) to generate the content; sink(bytes) appends. Throws std::runtime_error naming
    // the file and the system's reason on any failure; the temporary file is removed then.
    using Sink = std::function<void(std::string_view bytes)>;
    static void write(const std::filesystem::path& path, const std::function<void(const Sink&)>& produce);
    static void write(const std::filesystem::path& path, std::string_view content);
};

} // namespace sahaj::array
