#include "core/text/PretrainingExampleBuilder.h"

#include "core/text/PortableRandom.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace sahaj::text {

namespace {
// [CLS] + 2 x [SEP] + at least one token on each side.
constexpr int kMinSequenceLength = 5;
} // namespace

PretrainingExampleBuilder::PretrainingExampleBuilder(int sequenceLength, int clsId, int sepId,
                                                     std::vector<bool> wordStartById,
                                                     double shortSequenceProbability)
    : sequenceLength_(sequenceLength), clsId_(clsId), sepId_(sepId), wordStartById_(std::move(wordStartById)),
      shortSequenceProbability_(shortSequenceProbability) {
    if (sequenceLength < kMinSequenceLength)
        throw std::invalid_argument("sequence length must be at least " + std::to_string(kMinSequenceLength) +
                                    " ([CLS] A [SEP] B [SEP]), got " + std::to_string(sequenceLength));
    if (!(shortSequenceProbability >= 0.0 && shortSequenceProbability <= 1.0))
        throw std::invalid_argument("short-sequence probability must be in [0, 1]");
}

int PretrainingExampleBuilder::drawTarget(PortableRandom& random) const {
    // Draw only when the option is on, so a zero probability consumes no randomness.
    if (shortSequenceProbability_ > 0.0 && random.chance(shortSequenceProbability_))
        return static_cast<int>(random.between(2, maxContentTokens()));
    return maxContentTokens();
}

std::vector<PretrainingExample>
PretrainingExampleBuilder::build(const std::vector<std::vector<int>>& sentences,
                                 PortableRandom& random) const {
    // Segments: sentences, with over-long ones cut into pieces of equal size that fit alone (equal, so
    // that no tiny tail piece is left that could not make an example of its own).
    const auto limit = static_cast<std::size_t>(maxContentTokens());
    std::vector<std::vector<int>> segments;
    for (const auto& sentence : sentences) {
        const std::size_t pieces = (sentence.size() + limit - 1) / limit;
        for (std::size_t p = 0; p < pieces; ++p) {
            const std::size_t begin = sentence.size() * p / pieces;
            const std::size_t end = sentence.size() * (p + 1) / pieces;
            segments.emplace_back(sentence.begin() + static_cast<std::ptrdiff_t>(begin),
                                  sentence.begin() + static_cast<std::ptrdiff_t>(end));
        }
    }

    std::vector<PretrainingExample> examples;
    std::vector<std::vector<int>> chunk;
    std::size_t chunkTokens = 0;
    auto target = static_cast<std::size_t>(drawTarget(random));
    for (auto& segment : segments) {
        // Close the chunk before it would overflow the target: chunks never need truncating.
        if (!chunk.empty() && chunkTokens + segment.size() > target) {
            emitChunk(chunk, random, examples);
            chunk.clear();
            chunkTokens = 0;
            target = static_cast<std::size_t>(drawTarget(random));
        }
        chunkTokens += segment.size();
        chunk.push_back(std::move(segment));
        if (chunkTokens >= target) {
            emitChunk(chunk, random, examples);
            chunk.clear();
            chunkTokens = 0;
            target = static_cast<std::size_t>(drawTarget(random));
        }
    }
    if (!chunk.empty())
        emitChunk(chunk, random, examples);
    return examples;
}

void PretrainingExampleBuilder::emitChunk(const std::vector<std::vector<int>>& chunk, PortableRandom& random,
                                          std::vector<PretrainingExample>& out) const {
    std::vector<int> a;
    std::vector<int> b;
    if (chunk.size() >= 2) {
        const auto aEnd =
            static_cast<std::size_t>(random.between(1, static_cast<std::int64_t>(chunk.size()) - 1));
        for (std::size_t i = 0; i < chunk.size(); ++i) {
            auto& side = i < aEnd ? a : b;
            side.insert(side.end(), chunk[i].begin(), chunk[i].end());
        }
    } else {
        const std::vector<int>& tokens = chunk.front();
        if (tokens.size() < 2)
            return; // one token has no order to predict
        const std::size_t cut = splitInside(tokens, random);
        a.assign(tokens.begin(), tokens.begin() + static_cast<std::ptrdiff_t>(cut));
        b.assign(tokens.begin() + static_cast<std::ptrdiff_t>(cut), tokens.end());
    }
    const bool swapped = random.chance(0.5);
    out.push_back(swapped ? assemble(b, a, true) : assemble(a, b, false));
}

std::size_t PretrainingExampleBuilder::splitInside(const std::vector<int>& tokens,
                                                   PortableRandom& random) const {
    // Candidate cuts are positions 1..n-1; prefer those where a word starts, so A and B are whole words.
    std::vector<std::size_t> wordStarts;
    if (!wordStartById_.empty()) {
        for (std::size_t i = 1; i < tokens.size(); ++i) {
            const int id = tokens[i];
            if (id >= 0 && static_cast<std::size_t>(id) < wordStartById_.size() && wordStartById_[id])
                wordStarts.push_back(i);
        }
    }
    if (!wordStarts.empty())
        return wordStarts[static_cast<std::size_t>(random.below(wordStarts.size()))];
    return static_cast<std::size_t>(random.between(1, static_cast<std::int64_t>(tokens.size()) - 1));
}

PretrainingExample PretrainingExampleBuilder::assemble(const std::vector<int>& a, const std::vector<int>& b,
                                                       bool swapped) const {
    PretrainingExample example;
    example.inputIds.reserve(a.size() + b.size() + 3);
    example.inputIds.push_back(clsId_);
    example.inputIds.insert(example.inputIds.end(), a.begin(), a.end());
    example.inputIds.push_back(sepId_);
    example.tokenTypeIds.assign(example.inputIds.size(), 0);
    example.inputIds.insert(example.inputIds.end(), b.begin(), b.end());
    example.inputIds.push_back(sepId_);
    example.tokenTypeIds.resize(example.inputIds.size(), 1);
    example.sopLabel = swapped ? 1 : 0;
    return example;
}

} // namespace sahaj::text
