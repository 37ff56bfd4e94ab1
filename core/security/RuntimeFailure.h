#pragma once

#include <QString>

#include <stdexcept>

namespace sahaj::security {

// Throws a std::runtime_error carrying `message`: the one way this layer reports a file, key or
// OpenSSL failure to its callers, who show the text as it is.
[[noreturn]] inline void failWith(const QString& message) {
    throw std::runtime_error(message.toStdString());
}

} // namespace sahaj::security
