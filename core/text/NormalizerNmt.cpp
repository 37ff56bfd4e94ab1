#include "core/text/NormalizerNmt.h"

namespace sahaj::text {

namespace {

bool isDropped(char16_t c) {
    return (c >= 0x0001 && c <= 0x0008) || c == 0x000B || (c >= 0x000E && c <= 0x001F) || c == 0x007F ||
           c == 0x008F || c == 0x009F;
}

bool isSpace(char16_t c) {
    return c == 0x0009 || c == 0x000A || c == 0x000C || c == 0x000D || c == 0x1680 ||
           (c >= 0x200B && c <= 0x200F) || c == 0x2028 || c == 0x2029 || c == 0x2581 || c == 0xFEFF ||
           c == 0xFFFD;
}

bool needsWork(char16_t c) {
    return c < 0x20 || (c >= 0x7F && c <= 0x9F) || (c >= 0x1680 && isSpace(c));
}

} // namespace

void NormalizerNmt::normalize(QString& text) const {
    // Every affected character is in the BMP, so working on UTF-16 units is exact. Most text has none:
    // scan first so that the common case neither detaches nor copies the string.
    const char16_t* begin = reinterpret_cast<const char16_t*>(text.constData());
    const qsizetype size = text.size();
    qsizetype first = 0;
    while (first < size && !needsWork(begin[first]))
        ++first;
    if (first == size)
        return;
    QChar* out = text.data();
    qsizetype kept = first;
    for (qsizetype i = first; i < size; ++i) {
        const char16_t c = out[i].unicode();
        if (isDropped(c))
            continue;
        out[kept++] = isSpace(c) ? QChar(u' ') : QChar(c);
    }
    text.truncate(kept);
}

} // namespace sahaj::text
