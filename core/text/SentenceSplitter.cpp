#include "core/text/SentenceSplitter.h"

namespace sahaj::text {

bool SentenceSplitter::isTerminal(QChar c) {
    switch (c.unicode()) {
    case u'\u0964': // ।  danda
    case u'\u0965': // ॥  double danda
    case u'\u09E4': // ৤  reserved Bengali danda, normalised to ।
    case u'\u09E5': // ৥  reserved Bengali double danda, normalised to ॥
    case u'\u09F7': // ৷  currency numerator four, widely typed for danda and normalised to ।
    case u'?':
    case u'!':
        return true;
    default:
        return false;
    }
}

bool SentenceSplitter::isClosing(QChar c) {
    switch (c.unicode()) {
    case u'"':
    case u'\'':
    case u')':
    case u']':
    case u'}':
    case u'\u2019': // ’
    case u'\u201D': // ”
    case u'\u00BB': // »
        return true;
    default:
        return false;
    }
}

QStringList SentenceSplitter::split(const QString& document) {
    QStringList sentences;
    const auto add = [&sentences](const QString& text) {
        const QString sentence = text.trimmed();
        if (!sentence.isEmpty())
            sentences.push_back(sentence);
    };
    qsizetype start = 0;
    const qsizetype n = document.size();
    qsizetype i = 0;
    while (i < n) {
        const QChar c = document.at(i);
        if (c == QLatin1Char('\n') || c == QLatin1Char('\r') || c == QChar(QChar::ParagraphSeparator) ||
            c == QChar(QChar::LineSeparator)) {
            add(document.mid(start, i - start));
            start = ++i;
            continue;
        }
        qsizetype end = -1;
        if (isTerminal(c)) {
            end = i + 1;
            while (end < n && isTerminal(document.at(end)))
                ++end;
        } else if (c == QLatin1Char('.') && (i + 1 == n || document.at(i + 1).isSpace())) {
            end = i + 1;
        }
        if (end < 0) {
            ++i;
            continue;
        }
        while (end < n && isClosing(document.at(end)))
            ++end;
        add(document.mid(start, end - start));
        start = i = end;
    }
    add(document.mid(start));
    return sentences;
}

} // namespace sahaj::text
