#include "core/net/LogText.h"

#include <QByteArray>

#include <algorithm>

namespace sahaj::net {

QString LogText::of(std::string_view remote, std::size_t maxCharacters) {
    // Decoding a megabyte to keep 120 characters would be work a sender chooses: 4 bytes per character
    // at most, and one more to know whether to cut.
    const std::size_t take = std::min(remote.size(), 4 * (maxCharacters + 1));
    const QString decoded = QString::fromUtf8(remote.data(), static_cast<qsizetype>(take));
    QString text;
    std::size_t characters = 0;
    for (qsizetype i = 0; i < decoded.size(); ++i) {
        if (characters == maxCharacters) {
            text += QChar(0x2026); // …
            return text;
        }
        const QChar c = decoded[i];
        if (c.isHighSurrogate() && i + 1 < decoded.size() && decoded[i + 1].isLowSurrogate()) {
            const char32_t code = QChar::surrogateToUcs4(c, decoded[i + 1]);
            const QChar::Category category = QChar::category(code);
            if (category == QChar::Other_Control || category == QChar::Other_Format)
                text += QChar::ReplacementCharacter;
            else
                text += decoded.mid(i, 2);
            ++i;
        } else if (c.category() == QChar::Other_Control || c.category() == QChar::Other_Format ||
                   c.isSurrogate() || c == QChar::LineSeparator || c == QChar::ParagraphSeparator) {
            text += QChar::ReplacementCharacter;
        } else {
            text += c;
        }
        ++characters;
    }
    if (take < remote.size())
        text += QChar(0x2026);
    return text;
}

std::string LogText::utf8(std::string_view remote, std::size_t maxCharacters) {
    return of(remote, maxCharacters).toStdString();
}

std::string LogText::shortHex(std::string_view bytes) {
    return QByteArray(bytes.data(), static_cast<qsizetype>(std::min<std::size_t>(bytes.size(), 4)))
        .toHex()
        .toStdString();
}

} // namespace sahaj::net
