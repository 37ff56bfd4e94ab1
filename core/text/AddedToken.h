#pragma once

#include <QString>

namespace sahaj::text {

// A token of tokenizer.json's "added_tokens": matched in the text before the model runs, with the
// options of Hugging Face's AddedToken.
struct AddedToken {
    QString content;
    int id = -1;
    bool special = false;    // skipped by decode(skipSpecialTokens)
    bool singleWord = false; // only matches with no word character right before or after it
    bool lstrip = false;     // swallows the whitespace on its left
    bool rstrip = false;     // swallows the whitespace on its right
    bool normalized = true;  // matched in the normalized text, against its normalized content
    // The content after the tokenizer's normalizer, for normalized tokens whose content it changes
    // ("[MASK]" -> "[mask]"); empty otherwise. It is what the token matches and how it decodes.
    QString normalizedContent;

    const QString& matchedText() const { return normalizedContent.isEmpty() ? content : normalizedContent; }
};

} // namespace sahaj::text
