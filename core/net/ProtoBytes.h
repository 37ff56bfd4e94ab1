#pragma once

#include <QByteArray>

#include <string>

namespace sahaj::net {

// A protobuf bytes field (std::string) as a QByteArray, byte for byte.
inline QByteArray bytesOf(const std::string& bytes) {
    return QByteArray(bytes.data(), static_cast<qsizetype>(bytes.size()));
}

} // namespace sahaj::net
