#pragma once

#include <QByteArrayView>
#include <QString>

namespace sahaj::security {

// The spelling of a volunteer's user name, one rule for access tokens and the allowlist: 1 to 64 bytes of
// ASCII letters, digits and . _ @ -, so that a name is safe in a text file line, a log and a token, and
// two spellings of one name (Unicode look-alikes) cannot exist.
class Username {
public:
    static constexpr qsizetype kMaxBytes = 64;

    // Empty when `name` (its bytes; pass QString::toUtf8()) is a valid user name, otherwise what is wrong.
    static QString problem(QByteArrayView name);
    // The rule in words, for messages.
    static QString rule();
};

} // namespace sahaj::security
