#pragma once

#include <QString>
#include <QStringList>

#include <vector>

namespace sahaj::text {

// The pieces a pre-tokenizer cuts a normalized text into: spans of one buffer, so that splitting does
// not copy strings. Pre-tokenizers that rewrite text (Metaspace) build a new buffer.
struct PreTokenizerPieces {
    struct Piece {
        qsizetype start = 0;
        qsizetype length = 0;
        // Whether the piece begins where the original input text begins (Metaspace's "first" scheme
        // prepends the replacement only there).
        bool atTextStart = false;
    };

    QString text;
    std::vector<Piece> pieces;
    // Scratch space reused between steps, so that a pre-tokenizer does not allocate per call.
    std::vector<Piece> scratch;

    // Starts over with one piece covering all of `normalized` (none when it is empty).
    void reset(QString normalized, bool atTextStart) {
        text = std::move(normalized);
        pieces.clear();
        if (!text.isEmpty())
            pieces.push_back({0, text.size(), atTextStart});
    }
    QStringView view(const Piece& piece) const { return QStringView(text).mid(piece.start, piece.length); }
    QStringList toStringList() const {
        QStringList list;
        list.reserve(qsizetype(pieces.size()));
        for (const Piece& piece : pieces)
            list.append(view(piece).toString());
        return list;
    }
};

} // namespace sahaj::text
