#include "core/compute/SharedFloats.h"

#include "core/compute/SystemError.h"

#include <fcntl.h>
#include <stdexcept>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace sahaj::compute {

namespace {

constexpr int kSizeSeals = F_SEAL_SHRINK | F_SEAL_GROW;

float* mapShared(int fd, std::size_t count) {
    if (count == 0)
        return nullptr;
    void* mapped = ::mmap(nullptr, count * sizeof(float), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (mapped == MAP_FAILED)
        throw systemError("mapping shared memory of " + std::to_string(count * sizeof(float)) + " bytes");
    return static_cast<float*>(mapped);
}

} // namespace

SharedFloats SharedFloats::create(const std::string& name, std::size_t count) {
    UniqueFd fd(::memfd_create(name.c_str(), MFD_CLOEXEC | MFD_ALLOW_SEALING));
    if (!fd.valid())
        throw systemError("memfd_create " + name);
    if (::ftruncate(fd.get(), static_cast<off_t>(count * sizeof(float))) != 0)
        throw systemError("sizing shared memory " + name);
    if (::fcntl(fd.get(), F_ADD_SEALS, kSizeSeals | F_SEAL_SEAL) != 0)
        throw systemError("sealing shared memory " + name);
    float* data = mapShared(fd.get(), count);
    return SharedFloats(std::move(fd), data, count);
}

SharedFloats SharedFloats::adopt(UniqueFd fd, std::size_t count) {
    const int seals = ::fcntl(fd.get(), F_GET_SEALS);
    if (seals < 0 || (seals & kSizeSeals) != kSizeSeals)
        throw std::runtime_error("the shared memory handed over is not a memfd sealed against resizing");
    struct stat info {};
    if (::fstat(fd.get(), &info) != 0)
        throw systemError("reading the size of the shared memory handed over");
    if (static_cast<std::size_t>(info.st_size) != count * sizeof(float))
        throw std::runtime_error("the shared memory handed over holds " + std::to_string(info.st_size) +
                                 " bytes, " + std::to_string(count * sizeof(float)) + " expected");
    float* data = mapShared(fd.get(), count);
    return SharedFloats(std::move(fd), data, count);
}

SharedFloats::SharedFloats(SharedFloats&& other) noexcept
    : fd_(std::move(other.fd_)), data_(other.data_), count_(other.count_) {
    other.data_ = nullptr;
    other.count_ = 0;
}

SharedFloats& SharedFloats::operator=(SharedFloats&& other) noexcept {
    if (this != &other) {
        unmap();
        fd_ = std::move(other.fd_);
        data_ = other.data_;
        count_ = other.count_;
        other.data_ = nullptr;
        other.count_ = 0;
    }
    return *this;
}

SharedFloats::~SharedFloats() {
    unmap();
}

void SharedFloats::unmap() {
    if (data_)
        ::munmap(data_, count_ * sizeof(float));
    data_ = nullptr;
}

} // namespace sahaj::compute
