#pragma once

#include <QByteArrayView>
#include <QString>
#include <QStringView>

namespace sahaj::text {

// Character classes exactly as Hugging Face tokenizers (Rust) sees them. Qt's tables follow Unicode 14;
// where the Rust crates use older tables we restrict Qt's answer to the characters those tables knew,
// so that text written with newer characters splits the same way as in the reference implementation.
class TokenizerUnicode {
public:
    // Rust char::is_numeric: general categories Nd, Nl, No (the Digits pre-tokenizer).
    static bool isNumeric(char32_t c);
    // tokenizers' is_punc: ASCII punctuation, or a P* category in the Unicode 8.0 tables of the
    // unicode_categories crate (the Punctuation pre-tokenizer).
    static bool isPunctuation(char32_t c);
    // Rust char::is_whitespace / regex \s: the White_Space property (lstrip / rstrip of added tokens).
    static bool isWhitespace(char32_t c);
    // Rust regex \w: alphabetic, marks, decimal digits, connector punctuation, join controls
    // (single_word added tokens).
    static bool isWordCharacter(char32_t c);

    // UTF-8 to UTF-16 keeping a leading U+FEFF, which QString::fromUtf8 silently drops (a byte order
    // mark at the start of a line is text to tokenizers, which the Nmt normalizer turns into a space).
    static QString fromUtf8(QByteArrayView bytes);

    // The code point starting at text[i] and how many UTF-16 units it takes (an unpaired surrogate is
    // one unit on its own, as it cannot come from valid UTF-8 anyway).
    static char32_t codePointAt(QStringView text, qsizetype i, int* units) {
        const char16_t high = text[i].unicode();
        if (high >= 0xD800 && high < 0xDC00 && i + 1 < text.size()) {
            const char16_t low = text[i + 1].unicode();
            if (low >= 0xDC00 && low < 0xE000) {
                *units = 2;
                return 0x10000 + ((char32_t(high) - 0xD800) << 10) + (char32_t(low) - 0xDC00);
            }
        }
        *units = 1;
        return high;
    }
    // The code point ending just before text[end] (end > 0) and its length in UTF-16 units.
    static char32_t codePointBefore(QStringView text, qsizetype end, int* units) {
        const char16_t low = text[end - 1].unicode();
        if (low >= 0xDC00 && low < 0xE000 && end >= 2) {
            const char16_t high = text[end - 2].unicode();
            if (high >= 0xD800 && high < 0xDC00) {
                *units = 2;
                return 0x10000 + ((char32_t(high) - 0xD800) << 10) + (char32_t(low) - 0xDC00);
            }
        }
        *units = 1;
        return low;
    }
};

} // namespace sahaj::text
