#pragma once

#include <QString>

#include <optional>

namespace sahaj::eval {

// One tag of the BIO (IOB2) scheme: "O", "B-TYPE" or "I-TYPE". Other schemes (IOBES's E- and S-, bare
// types) are refused rather than guessed at, because a wrong guess silently changes every entity score.
struct BioTag {
    enum class Kind { Outside, Begin, Inside };

    Kind kind = Kind::Outside;
    QString type; // empty for Outside

    // The tag, or nullopt when it is not O, B-TYPE or I-TYPE with a non-empty TYPE free of whitespace.
    static std::optional<BioTag> parse(const QString& tag);
    // The accepted forms, for error messages.
    static QString syntax() { return QStringLiteral("O, B-TYPE or I-TYPE (BIO / IOB2 tagging)"); }
};

} // namespace sahaj::eval
