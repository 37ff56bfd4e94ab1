#pragma once

#include "core/compute/UniqueFd.h"

#include <cstddef>
#include <span>
#include <string>

namespace sahaj::compute {

// A vector of fp32 values in shared memory (a memfd mapped on both sides): how the parameters reach a
// compute core and its gradient comes back without crossing the socket. The creator seals its size, so
// that the other side can neither shrink it (which would make every later access fault) nor grow it.
class SharedFloats {
public:
    // Throws std::runtime_error with the system's reason.
    static SharedFloats create(const std::string& name, std::size_t count);
    // Maps a descriptor received from the other side. Throws std::runtime_error unless it is a sealed memfd
    // of exactly `count` values.
    static SharedFloats adopt(UniqueFd fd, std::size_t count);

    SharedFloats(SharedFloats&& other) noexcept;
    SharedFloats& operator=(SharedFloats&& other) noexcept;
    ~SharedFloats();
    SharedFloats(const SharedFloats&) = delete;
    SharedFloats& operator=(const SharedFloats&) = delete;

    std::span<float> values() { return {data_, count_}; }
    std::span<const float> values() const { return {data_, count_}; }
    std::size_t size() const { return count_; }
    int fd() const { return fd_.get(); }

private:
    SharedFloats(UniqueFd fd, float* data, std::size_t count)
        : fd_(std::move(fd)), data_(data), count_(count) {}
    void unmap();

    UniqueFd fd_;
    float* data_ = nullptr;
    std::size_t count_ = 0;
};

} // namespace sahaj::compute
