#include "core/text/UnigramModel.h"

#include "core/text/TokenizerError.h"
#include "core/text/TokenizerUnicode.h"

#include <algorithm>
#include <limits>

namespace sahaj::text {

namespace {

// SentencePiece's penalty for an unknown character, below the least likely piece.
constexpr double kUnknownPenalty = 10.0;

// The best segmentation found so far of the text up to one position.
struct BestPath {
    double score = 0.0;
    qsizetype start = -1; // where its last token starts; -1 while the position is unreached
    int id = -1;
};

} // namespace

UnigramModel::UnigramModel(std::vector<QString> pieces, std::vector<double> scores, int unkId)
    : pieces_(std::move(pieces)), scores_(std::move(scores)), unkId_(unkId) {
    if (pieces_.empty())
        throw TokenizerError("Unigram model has an empty vocabulary");
    if (unkId_ < -1 || unkId_ >= size())
        throw TokenizerError("Unigram model unk_id " + std::to_string(unkId_) +
                             " is out of range (vocab has " + std::to_string(pieces_.size()) + " entries)");
    double minScore = std::numeric_limits<double>::infinity();
    std::vector<int> ids(pieces_.size());
    ids_.reserve(qsizetype(pieces_.size()));
    for (std::size_t i = 0; i < pieces_.size(); ++i) {
        ids_.insert(pieces_[i], int(i));
        minScore = std::min(minScore, scores_[i]);
    }
    // The trie yields the id the string maps to, which for a duplicated piece is its last id.
    for (std::size_t i = 0; i < pieces_.size(); ++i)
        ids[i] = ids_.value(pieces_[i]);
    trie_ = TokenizerTrie(pieces_, ids);
    unkScore_ = minScore - kUnknownPenalty;
}

void UnigramModel::tokenize(QStringView piece, std::vector<int>& ids, std::vector<QString>* tokens) const {
    const qsizetype size = piece.size();
    if (size == 0)
        return;
    // One buffer per thread: the model is shared, and a vector per call would allocate for every word.
    thread_local std::vector<BestPath> best;
    best.assign(std::size_t(size) + 1, BestPath{});
    best[0].start = 0;

    for (qsizetype start = 0; start < size;) {
        int charUnits = 1;
        TokenizerUnicode::codePointAt(piece, start, &charUnits);
        const double base = best[std::size_t(start)].score;
        bool coversOneChar = false;
        // Candidates arrive shortest first and only a strictly better score replaces a path, which
        // breaks ties the way tokenizers does.
        trie_.forEachPrefix(piece.mid(start), [&](qsizetype length, int id) {
            BestPath& target = best[std::size_t(start + length)];
            const double score = scores_[std::size_t(id)] + base;
            if (target.start < 0 || score > target.score)
                target = {score, start, id};
            if (length == charUnits)
                coversOneChar = true;
        });
        if (!coversOneChar) {
            if (unkId_ < 0)
                throw TokenizerError(
                    "the text contains '" + piece.mid(start, charUnits).toString().toStdString() +
                    "', which is not in the vocabulary, and the Unigram model has no unk_id");
            BestPath& target = best[std::size_t(start + charUnits)];
            const double score = unkScore_ + base;
            if (target.start < 0 || score > target.score)
                target = {score, start, unkId_};
        }
        start += charUnits;
    }

    // Walk back from the end; the tokens come out last first and are reversed in place afterwards.
    const std::size_t firstId = ids.size();
    const std::size_t firstToken = tokens ? tokens->size() : 0;
    qsizetype end = size;
    while (end > 0) {
        const BestPath& node = best[std::size_t(end)];
        qsizetype begin = node.start;
        int id = node.id;
        if (id == unkId_) {
            // Fuse a run of unknown tokens into one; its id is whatever the fused text maps to.
            while (begin > 0 && best[std::size_t(begin)].id == unkId_)
                begin = best[std::size_t(begin)].start;
            if (begin != node.start)
                id = ids_.value(piece.mid(begin, end - begin).toString(), unkId_);
        }
        ids.push_back(id);
        if (tokens)
            tokens->push_back(piece.mid(begin, end - begin).toString());
        end = begin;
    }
    std::reverse(ids.begin() + std::ptrdiff_t(firstId), ids.end());
    if (tokens)
        std::reverse(tokens->begin() + std::ptrdiff_t(firstToken), tokens->end());
}

} // namespace sahaj::text
