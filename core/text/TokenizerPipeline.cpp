#include "core/text/TokenizerPipeline.h"

#include <algorithm>

namespace sahaj::text {

TokenizerPipeline::TokenizerPipeline(Parts parts) : parts_(std::move(parts)) {
    vocabSize_ = parts_.model->size();
    for (const AddedToken& token : parts_.addedTokens.tokens())
        vocabSize_ = std::max(vocabSize_, token.id + 1);
}

void TokenizerPipeline::encodeSequence(QStringView text, std::vector<int>& ids,
                                       std::vector<QString>* tokens) const {
    // Scratch space per thread: the pipeline is shared, and these would otherwise be allocated for
    // every text.
    thread_local std::vector<AddedTokenVocabulary::Split> rawSplits;
    thread_local std::vector<AddedTokenVocabulary::Split> normalizedSplits;
    thread_local PreTokenizerPieces pieces;
    const AddedTokenVocabulary& added = parts_.addedTokens;

    const auto emitToken = [&](int index, QStringView spelling) {
        ids.push_back(added.tokens()[std::size_t(index)].id);
        if (tokens)
            tokens->push_back(spelling.toString());
    };
    added.split(text, false, rawSplits);
    for (const AddedTokenVocabulary::Split& raw : rawSplits) {
        const QStringView rawText = text.mid(raw.start, raw.length);
        if (raw.token >= 0) {
            emitToken(raw.token, rawText);
            continue;
        }
        QString normalized = rawText.toString();
        if (parts_.normalizer)
            parts_.normalizer->normalize(normalized);
        added.split(normalized, true, normalizedSplits);
        for (const AddedTokenVocabulary::Split& split : normalizedSplits) {
            const QStringView part = QStringView(normalized).mid(split.start, split.length);
            if (split.token >= 0) {
                emitToken(split.token, part);
                continue;
            }
            pieces.reset(part.toString(), raw.start == 0 && split.start == 0);
            if (parts_.preTokenizer)
                parts_.preTokenizer->preTokenize(pieces);
            for (const PreTokenizerPieces::Piece& piece : pieces.pieces)
                parts_.model->tokenize(pieces.view(piece), ids, tokens);
        }
    }
}

void TokenizerPipeline::postProcess(const Encoding& a, const Encoding* b, bool addSpecialTokens,
                                    bool withTokens, Encoding& out) const {
    if (parts_.postProcessor) {
        parts_.postProcessor->apply(a, b, addSpecialTokens, withTokens, out);
        return;
    }
    // Without a post-processor tokenizers concatenates the sequences, B with type id 1.
    out = a;
    out.typeIds.assign(a.ids.size(), 0);
    if (b) {
        out.ids.insert(out.ids.end(), b->ids.begin(), b->ids.end());
        out.typeIds.insert(out.typeIds.end(), b->ids.size(), 1);
        out.tokens.insert(out.tokens.end(), b->tokens.begin(), b->tokens.end());
    }
}

QString TokenizerPipeline::decode(const std::vector<int>& ids, bool skipSpecialTokens) const {
    std::vector<QString> tokens;
    tokens.reserve(ids.size());
    for (const int id : ids) {
        // Ids that belong to nothing are dropped, as tokenizers does.
        QString spelling;
        if (const AddedToken* token = parts_.addedTokens.findById(id))
            spelling = token->matchedText();
        else if (id >= 0 && id < parts_.model->size())
            spelling = parts_.model->idToToken(id);
        else
            continue;
        if (skipSpecialTokens && parts_.addedTokens.isSpecialSpelling(spelling))
            continue;
        tokens.push_back(std::move(spelling));
    }
    if (parts_.decoder)
        return parts_.decoder->decode(tokens);
    QStringList list(tokens.begin(), tokens.end());
    return list.join(u' ');
}

QString TokenizerPipeline::normalize(const QString& text) const {
    QString normalized = text;
    if (parts_.normalizer)
        parts_.normalizer->normalize(normalized);
    return normalized;
}

QStringList TokenizerPipeline::preTokenize(const QString& normalized) const {
    PreTokenizerPieces pieces;
    pieces.reset(normalized, true);
    if (parts_.preTokenizer)
        parts_.preTokenizer->preTokenize(pieces);
    return pieces.toStringList();
}

int TokenizerPipeline::tokenToId(const QString& token) const {
    const int added = parts_.addedTokens.idOf(token);
    return added >= 0 ? added : parts_.model->tokenToId(token);
}

QString TokenizerPipeline::idToToken(int id) const {
    if (const AddedToken* token = parts_.addedTokens.findById(id))
        return token->matchedText();
    return parts_.model->idToToken(id);
}

std::vector<int> TokenizerPipeline::specialIds() const {
    std::vector<int> ids;
    for (const AddedToken& token : parts_.addedTokens.tokens()) {
        if (token.special)
            ids.push_back(token.id);
    }
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    return ids;
}

} // namespace sahaj::text
