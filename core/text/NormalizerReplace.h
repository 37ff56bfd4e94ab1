#pragma once

#include "core/text/Normalizer.h"

#include <QRegularExpression>

namespace sahaj::text {

// The "Replace" normalizer: every non-overlapping occurrence of a literal string or of a regular
// expression, left to right, becomes `content` (literally: "$1" is not a group reference, as in
// tokenizers, which inserts the content verbatim).
class NormalizerReplace : public Normalizer {
public:
    enum class PatternKind { String, Regex };
    // Throws TokenizerError for an empty literal or a regular expression that does not compile.
    NormalizerReplace(PatternKind kind, const QString& pattern, QString content);
    void normalize(QString& text) const override;

    // tokenizers compiles patterns with Oniguruma; ours go to PCRE2. The one Oniguruma spelling that
    // PCRE2 reads differently in tokenizer.json files is \uHHHH, which becomes \x{HHHH}.
    static QString toPcrePattern(const QString& onigurumaPattern);

private:
    PatternKind kind_;
    QString literal_;
    QRegularExpression regex_;
    QString content_;
};

} // namespace sahaj::text
