#include "core/text/TokenizerUnicode.h"

#include <QChar>
#include <QStringDecoder>

namespace sahaj::text {

QString TokenizerUnicode::fromUtf8(QByteArrayView bytes) {
    if (!bytes.startsWith("\xEF\xBB\xBF"))
        return QString::fromUtf8(bytes);
    QStringDecoder decoder(QStringConverter::Utf8, QStringConverter::Flag::ConvertInitialBom);
    return decoder.decode(bytes);
}

bool TokenizerUnicode::isNumeric(char32_t c) {
    if (c < 0x80)
        return c >= '0' && c <= '9';
    return QChar::isNumber(c);
}

bool TokenizerUnicode::isPunctuation(char32_t c) {
    if (c < 0x80)
        return (c >= 0x21 && c <= 0x2F) || (c >= 0x3A && c <= 0x40) || (c >= 0x5B && c <= 0x60) ||
               (c >= 0x7B && c <= 0x7E);
    // Two characters changed category after Unicode 8.0: CANADIAN SYLLABICS CHI SIGN was Po (now So),
    // SHARADA SANDHI MARK was not punctuation (now Po). The reference still uses the old values.
    if (c == 0x166D)
        return true;
    if (c == 0x111C9)
        return false;
    switch (QChar::category(c)) {
    case QChar::Punctuation_Connector:
    case QChar::Punctuation_Dash:
    case QChar::Punctuation_Open:
    case QChar::Punctuation_Close:
    case QChar::Punctuation_InitialQuote:
    case QChar::Punctuation_FinalQuote:
    case QChar::Punctuation_Other:
        // Characters added after 8.0 (e.g. BENGALI ABBREVIATION SIGN, 10.0) are unknown to the reference.
        return QChar::unicodeVersion(c) <= QChar::Unicode_8_0;
    default:
        return false;
    }
}

bool TokenizerUnicode::isWhitespace(char32_t c) {
    // The White_Space property is a short, stable list; spelling it out avoids depending on how a
    // library maps it to categories.
    switch (c) {
    case 0x09:
    case 0x0A:
    case 0x0B:
    case 0x0C:
    case 0x0D:
    case 0x20:
    case 0x85:
    case 0xA0:
    case 0x1680:
    case 0x2028:
    case 0x2029:
    case 0x202F:
    case 0x205F:
    case 0x3000:
        return true;
    default:
        return c >= 0x2000 && c <= 0x200A;
    }
}

bool TokenizerUnicode::isWordCharacter(char32_t c) {
    if (c < 0x80)
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
    if (c == 0x200C || c == 0x200D)
        return true;
    switch (QChar::category(c)) {
    case QChar::Letter_Uppercase:
    case QChar::Letter_Lowercase:
    case QChar::Letter_Titlecase:
    case QChar::Letter_Modifier:
    case QChar::Letter_Other:
    case QChar::Mark_NonSpacing:
    case QChar::Mark_SpacingCombining:
    case QChar::Mark_Enclosing:
    case QChar::Number_DecimalDigit:
    case QChar::Number_Letter:
    case QChar::Punctuation_Connector:
        return true;
    default:
        return false;
    }
}

} // namespace sahaj::text
