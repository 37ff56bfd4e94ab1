#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QtEndian>

#include <cstdint>
#include <string_view>

namespace sahaj::security {

// The bytes a signature covers, built field by field: each variable field after its length (4 bytes, big
// endian), so that no two lists of fields make the same text; numbers big endian. One builder for every
// signed text (tokens, token requests, averages' seals).
class SignedText {
public:
    static void appendField(QByteArray& out, QByteArrayView bytes) {
        char length[4];
        qToBigEndian(static_cast<quint32>(bytes.size()), length);
        out.append(length, 4);
        out.append(bytes);
    }
    // The same for bytes held in a std::string (protobuf's bytes fields, run ids).
    static void appendBytes(QByteArray& out, std::string_view bytes) {
        appendField(out, QByteArrayView(bytes.data(), static_cast<qsizetype>(bytes.size())));
    }
    static void appendNumber(QByteArray& out, std::uint64_t value) {
        char bytes[8];
        qToBigEndian(static_cast<quint64>(value), bytes);
        out.append(bytes, 8);
    }
};

} // namespace sahaj::security
