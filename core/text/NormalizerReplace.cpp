#include "core/text/NormalizerReplace.h"

#include "core/text/TokenizerError.h"

namespace sahaj::text {

NormalizerReplace::NormalizerReplace(PatternKind kind, const QString& pattern, QString content)
    : kind_(kind), content_(std::move(content)) {
    if (kind_ == PatternKind::String) {
        // An empty literal would match between every two characters; no real tokenizer uses it and
        // it is far more likely a broken file.
        if (pattern.isEmpty())
            throw TokenizerError("Replace normalizer has an empty String pattern");
        literal_ = pattern;
        return;
    }
    regex_.setPattern(toPcrePattern(pattern));
    // Oniguruma's \w, \d, \s and [[:alpha:]] are Unicode-aware for UTF-8 text; PCRE2 needs asking.
    regex_.setPatternOptions(QRegularExpression::UseUnicodePropertiesOption);
    if (!regex_.isValid())
        throw TokenizerError(QStringLiteral("Replace normalizer pattern '%1' is not a valid regular "
                                            "expression: %2 (at offset %3)")
                                 .arg(pattern, regex_.errorString())
                                 .arg(regex_.patternErrorOffset())
                                 .toStdString());
    // Compile (and JIT) now: the tokenizer is shared between threads and must not change afterwards.
    regex_.optimize();
}

QString NormalizerReplace::toPcrePattern(const QString& pattern) {
    QString out;
    out.reserve(pattern.size());
    for (qsizetype i = 0; i < pattern.size(); ++i) {
        const QChar c = pattern[i];
        if (c == u'\\' && i + 1 < pattern.size()) {
            if (pattern[i + 1] == u'u' && i + 5 < pattern.size()) {
                bool ok = false;
                const uint code = pattern.mid(i + 2, 4).toUInt(&ok, 16);
                if (ok) {
                    out += QStringLiteral("\\x{%1}").arg(code, 4, 16, QLatin1Char('0'));
                    i += 5;
                    continue;
                }
            }
            // Keep any other escape (including an escaped backslash) as a unit.
            out += c;
            out += pattern[++i];
            continue;
        }
        out += c;
    }
    return out;
}

void NormalizerReplace::normalize(QString& text) const {
    if (kind_ == PatternKind::String) {
        if (text.contains(literal_))
            text.replace(literal_, content_);
        return;
    }
    QRegularExpressionMatchIterator it = regex_.globalMatch(text);
    if (!it.hasNext())
        return;
    QString out;
    out.reserve(text.size());
    qsizetype last = 0;
    while (it.hasNext()) {
        const QRegularExpressionMatch match = it.next();
        out.append(QStringView(text).mid(last, match.capturedStart() - last));
        out.append(content_);
        last = match.capturedEnd();
    }
    out.append(QStringView(text).mid(last));
    text = std::move(out);
}

} // namespace sahaj::text
