#pragma once

#include <QString>

#include <stdexcept>

namespace sahaj::run {

// Refuses a run manifest (or a part of one) with `message`: std::invalid_argument, which the callers show
// as it is, naming the file.
[[noreturn]] inline void refuseManifest(const QString& message) {
    throw std::invalid_argument(message.toStdString());
}

} // namespace sahaj::run
