#pragma once

#include "core/text/PreTokenizerPieces.h"
#include "core/text/TokenizerUnicode.h"

namespace sahaj::text {

// What happens to the delimiters when a piece is split on them (tokenizers' SplitDelimiterBehavior).
enum class SplitBehavior { Removed, Isolated, MergedWithPrevious, MergedWithNext, Contiguous };

// Splits every piece on the characters a predicate selects, exactly as tokenizers'
// NormalizedString::split does with a character pattern: each delimiter character is a match of its
// own, the behavior then merges or drops matches, and empty pieces disappear.
class PreTokenizerSplitter {
public:
    template <class IsDelimiter>
    static void split(PreTokenizerPieces& pieces, SplitBehavior behavior, IsDelimiter isDelimiter) {
        std::vector<PreTokenizerPieces::Piece>& out = pieces.scratch;
        out.clear();
        const QStringView text(pieces.text);
        for (const PreTokenizerPieces::Piece& piece : pieces.pieces) {
            const qsizetype end = piece.start + piece.length;
            // Segments alternate between runs of ordinary characters and single delimiters.
            qsizetype segmentStart = piece.start;
            bool previousMatch = false;
            const std::size_t firstOut = out.size();
            const auto emit = [&](qsizetype begin, qsizetype stop, bool match) {
                switch (behavior) {
                case SplitBehavior::Removed:
                    if (!match)
                        out.push_back({begin, stop - begin, false});
                    break;
                case SplitBehavior::Isolated:
                    out.push_back({begin, stop - begin, false});
                    break;
                case SplitBehavior::MergedWithPrevious:
                    if (match && !previousMatch && out.size() > firstOut)
                        out.back().length = stop - out.back().start;
                    else
                        out.push_back({begin, stop - begin, false});
                    break;
                case SplitBehavior::MergedWithNext:
                    // A delimiter opens the text that follows it; in a run of delimiters only the last
                    // one has text to open, the others stay alone (tokenizers folds from the right).
                    // Delimiters are always emitted alone, so the one before this text is out.back().
                    if (!match && previousMatch && out.size() > firstOut)
                        out.back().length = stop - out.back().start;
                    else
                        out.push_back({begin, stop - begin, false});
                    break;
                case SplitBehavior::Contiguous:
                    if (match == previousMatch && out.size() > firstOut)
                        out.back().length = stop - out.back().start;
                    else
                        out.push_back({begin, stop - begin, false});
                    break;
                }
                previousMatch = match;
            };
            qsizetype i = piece.start;
            while (i < end) {
                int units = 1;
                const char32_t c = TokenizerUnicode::codePointAt(text, i, &units);
                if (isDelimiter(c)) {
                    if (segmentStart < i)
                        emit(segmentStart, i, false);
                    emit(i, i + units, true);
                    segmentStart = i + units;
                }
                i += units;
            }
            if (segmentStart < end)
                emit(segmentStart, end, false);
            if (piece.atTextStart && out.size() > firstOut && out[firstOut].start == piece.start)
                out[firstOut].atTextStart = true;
        }
        std::swap(pieces.pieces, pieces.scratch);
    }
};

} // namespace sahaj::text
