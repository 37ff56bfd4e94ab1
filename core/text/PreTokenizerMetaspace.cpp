#include "core/text/PreTokenizerMetaspace.h"

#include "core/text/PreTokenizerSplitter.h"

namespace sahaj::text {

PreTokenizerMetaspace::PreTokenizerMetaspace(char32_t replacement, PrependScheme scheme, bool split)
    : replacement_(replacement), replacementText_(QString::fromUcs4(&replacement, 1)), scheme_(scheme),
      split_(split) {}

void PreTokenizerMetaspace::preTokenize(PreTokenizerPieces& pieces) const {
    // Rewrite every piece into a new buffer: spaces replaced first, then the prefix decided on the
    // rewritten text (so " word" gets no second replacement), as tokenizers does since 0.15.
    QString rewritten;
    rewritten.reserve(pieces.text.size() + qsizetype(pieces.pieces.size()) * replacementText_.size() + 1);
    std::vector<PreTokenizerPieces::Piece>& out = pieces.scratch;
    out.clear();
    for (const PreTokenizerPieces::Piece& piece : pieces.pieces) {
        const QStringView text = pieces.view(piece);
        const qsizetype start = rewritten.size();
        int units = 1;
        const char32_t first = text.isEmpty() ? 0 : TokenizerUnicode::codePointAt(text, 0, &units);
        const bool startsWithSpace = first == U' ' || first == replacement_;
        const bool prepend =
            !text.isEmpty() && !startsWithSpace &&
            (scheme_ == PrependScheme::Always || (scheme_ == PrependScheme::First && piece.atTextStart));
        if (prepend)
            rewritten.append(replacementText_);
        for (const QChar c : text) {
            if (c == u' ')
                rewritten.append(replacementText_);
            else
                rewritten.append(c);
        }
        out.push_back({start, rewritten.size() - start, piece.atTextStart});
    }
    pieces.text = std::move(rewritten);
    std::swap(pieces.pieces, pieces.scratch);
    if (split_)
        PreTokenizerSplitter::split(pieces, SplitBehavior::MergedWithNext,
                                    [this](char32_t c) { return c == replacement_; });
}

} // namespace sahaj::text
