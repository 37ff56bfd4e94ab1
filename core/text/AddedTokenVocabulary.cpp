#include "core/text/AddedTokenVocabulary.h"

#include "core/text/TokenizerUnicode.h"

namespace sahaj::text {

namespace {

bool endsWithWordCharacter(QStringView text) {
    if (text.isEmpty())
        return false;
    int units = 1;
    return TokenizerUnicode::isWordCharacter(TokenizerUnicode::codePointBefore(text, text.size(), &units));
}

bool startsWithWordCharacter(QStringView text) {
    if (text.isEmpty())
        return false;
    int units = 1;
    return TokenizerUnicode::isWordCharacter(TokenizerUnicode::codePointAt(text, 0, &units));
}

// Start of the whitespace run that ends `text` (text.size() when there is none).
qsizetype trailingWhitespaceStart(QStringView text) {
    qsizetype start = text.size();
    while (start > 0) {
        int units = 1;
        if (!TokenizerUnicode::isWhitespace(TokenizerUnicode::codePointBefore(text, start, &units)))
            break;
        start -= units;
    }
    return start;
}

// Length of the whitespace run that starts `text`.
qsizetype leadingWhitespaceLength(QStringView text) {
    qsizetype length = 0;
    while (length < text.size()) {
        int units = 1;
        if (!TokenizerUnicode::isWhitespace(TokenizerUnicode::codePointAt(text, length, &units)))
            break;
        length += units;
    }
    return length;
}

} // namespace

AddedTokenVocabulary::AddedTokenVocabulary(std::vector<AddedToken> tokens) : tokens_(std::move(tokens)) {
    std::vector<QString> rawKeys, normalizedKeys;
    std::vector<int> rawValues, normalizedValues;
    for (std::size_t i = 0; i < tokens_.size(); ++i) {
        const AddedToken& token = tokens_[i];
        byContent_.insert(token.content, token.id);
        indexById_.insert(token.id, int(i));
        if (token.special)
            specialContents_.insert(token.content);
        if (token.normalized) {
            normalizedKeys.push_back(token.matchedText());
            normalizedValues.push_back(int(i));
        } else {
            rawKeys.push_back(token.content);
            rawValues.push_back(int(i));
        }
    }
    rawTrie_ = TokenizerTrie(rawKeys, rawValues);
    normalizedTrie_ = TokenizerTrie(normalizedKeys, normalizedValues);
}

void AddedTokenVocabulary::split(QStringView text, bool normalizedTokens, std::vector<Split>& out) const {
    out.clear();
    const TokenizerTrie& trie = normalizedTokens ? normalizedTrie_ : rawTrie_;
    if (text.isEmpty())
        return;
    if (trie.isEmpty()) {
        out.push_back({0, text.size(), -1});
        return;
    }
    qsizetype consumed = 0; // end of the last accepted token
    qsizetype position = 0;
    while (position < text.size()) {
        const auto [length, index] = trie.longestPrefix(text.mid(position));
        if (index < 0) {
            ++position;
            continue;
        }
        qsizetype start = position;
        qsizetype stop = position + length;
        // The next search starts after this match even when the match is rejected, as in an
        // Aho-Corasick leftmost-longest scan.
        position = stop;
        const AddedToken& token = tokens_[std::size_t(index)];
        if (token.singleWord) {
            const bool spaceBefore = start == 0 || !endsWithWordCharacter(text.first(start));
            const bool spaceAfter = stop == text.size() || !startsWithWordCharacter(text.mid(stop));
            if (!spaceBefore || !spaceAfter)
                continue;
        }
        if (token.lstrip)
            start = std::max(trailingWhitespaceStart(text.first(start)), consumed);
        if (token.rstrip)
            stop += leadingWhitespaceLength(text.mid(stop));
        if (consumed < start)
            out.push_back({consumed, start - consumed, -1});
        out.push_back({start, stop - start, index});
        consumed = stop;
    }
    if (consumed < text.size())
        out.push_back({consumed, text.size() - consumed, -1});
}

} // namespace sahaj::text
