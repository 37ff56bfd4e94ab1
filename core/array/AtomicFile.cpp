#include "core/array/AtomicFile.h"

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>
#include <system_error>

#if defined(__unix__) || defined(__APPLE__)
#include <unistd.h>
#define SAHAJ_HAVE_FSYNC 1
#endif

namespace sahaj::array {

namespace {

std::filesystem::path temporaryPathFor(const std::filesystem::path& path) {
    // Unique within the process (counter) and across processes (pid where available), hidden by the dot.
    static std::atomic<unsigned> counter{0};
    std::string suffix = ".tmp-";
#ifdef SAHAJ_HAVE_FSYNC
    suffix += std::to_string(static_cast<long>(::getpid())) + "-";
#endif
    suffix += std::to_string(counter.fetch_add(1));
    return path.parent_path() / (std::string(".") + path.filename().string() + suffix);
}

std::string systemReason() {
    return std::strerror(errno);
}

// Owns the temporary file until it has been renamed: every way out before that (errors, exceptions from
// the producer) closes and removes it.
struct TemporaryFile {
    std::filesystem::path path;
    std::FILE* file = nullptr;
    bool renamed = false;
    ~TemporaryFile() {
        if (file)
            std::fclose(file);
        if (!renamed) {
            std::error_code ignored;
            std::filesystem::remove(path, ignored);
        }
    }
};

} // namespace

void AtomicFile::write(const std::filesystem::path& path, const std::function<void(const Sink&)>& produce) {
    if (path.filename().empty())
        throw std::runtime_error("cannot write '" + path.string() + "': not a file name");
    TemporaryFile temporary{temporaryPathFor(path)};
    temporary.file = std::fopen(temporary.path.string().c_str(), "wb");
    if (!temporary.file)
        throw std::runtime_error("cannot create '" + temporary.path.string() + "': " + systemReason());
    const auto fail = [&](const char* what) {
        throw std::runtime_error("cannot write '" + path.string() + "': " + what + ": " + systemReason());
    };
    produce([&](std::string_view bytes) {
        if (!bytes.empty() && std::fwrite(bytes.data(), 1, bytes.size(), temporary.file) != bytes.size())
            fail("write failed");
    });
    if (std::fflush(temporary.file) != 0)
        fail("flush failed");
#ifdef SAHAJ_HAVE_FSYNC
    if (::fsync(::fileno(temporary.file)) != 0)
        fail("fsync failed");
#endif
    const int closed = std::fclose(temporary.file);
    temporary.file = nullptr;
    if (closed != 0)
        fail("close failed");
    std::error_code error;
    std::filesystem::rename(temporary.path, path, error);
    if (error)
        throw std::runtime_error("cannot replace '" + path.string() + "': " + error.message());
    temporary.renamed = true;
}

void AtomicFile::write(const std::filesystem::path& path, std::string_view content) {
    write(path, [&](const Sink& sink) { sink(content); });
}

} // namespace sahaj::array
