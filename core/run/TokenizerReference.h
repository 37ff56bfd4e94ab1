#pragma once

#include <QString>

namespace sahaj::run {

// The tokenizer.json every peer of a run must use. Exactly one of `path` (an absolute local path) and `url`
// (https) is set; the hash pins the content wherever the file comes from.
struct TokenizerReference {
    QString path;
    QString url;
    // SHA-256 of the file's bytes: 64 lowercase hexadecimal digits.
    QString sha256;

    bool operator==(const TokenizerReference&) const = default;
};

} // namespace sahaj::run
