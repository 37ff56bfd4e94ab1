#pragma once

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>

namespace sahaj::compute {

// A failed system call as an exception: what was being done, then errno's text (read at once, before
// anything else can change it).
inline std::runtime_error systemError(const std::string& what) {
    return std::runtime_error(what + ": " + std::strerror(errno));
}

} // namespace sahaj::compute
