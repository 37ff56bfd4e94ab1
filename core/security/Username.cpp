#include "core/security/Username.h"

#include <algorithm>

namespace sahaj::security {

namespace {

bool isNameByte(char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' ||
           c == '_' || c == '@' || c == '-';
}

} // namespace

QString Username::problem(QByteArrayView name) {
    if (name.isEmpty())
        return QStringLiteral("the user name is empty");
    if (name.size() > kMaxBytes)
        return QStringLiteral("the user name is %1 bytes, longer than %2").arg(name.size()).arg(kMaxBytes);
    if (!std::all_of(name.begin(), name.end(), isNameByte))
        return QStringLiteral("the user name '%1' has a character outside %2")
            .arg(QString::fromUtf8(name.data(), name.size()), rule());
    return {};
}

QString Username::rule() {
    return QStringLiteral("A-Z, a-z, 0-9 and . _ @ -");
}

} // namespace sahaj::security
