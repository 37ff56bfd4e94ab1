#pragma once

#include "core/text/PretrainingExample.h"

#include <vector>

namespace sahaj::text {

class PortableRandom;

// Turns one tokenised document (its sentences as token ids, without special tokens) into sentence-
// order examples, as ALBERT prepares its data (docs/data.md):
//  - consecutive sentences are packed into a chunk of at most `sequenceLength - 3` tokens (with
//    probability `shortSequenceProbability` a shorter random target, so the model also sees short
//    inputs); a sentence longer than that is first cut into equal pieces that fit, so no text is dropped;
//  - a chunk of two or more segments is split at a random segment boundary into A and B; a chunk of one
//    segment (e.g. a one-sentence document) is split inside, preferably at a word start (a token that
//    begins with the Metaspace mark), so short documents still make examples; one token cannot be split
//    and is skipped;
//  - with probability 0.5 A and B are swapped, and the SOP label is 1 (0 = in order), as in Hugging
//    Face's ALBERT;
//  - the result is `[CLS] A [SEP] B [SEP]` with token types 0 for `[CLS] A [SEP]` and 1 for `B [SEP]`.
// The examples are not masked yet (MlmMasker does that).
class PretrainingExampleBuilder {
public:
    // wordStartById[id] tells whether token `id` begins a word; empty means "split anywhere".
    PretrainingExampleBuilder(int sequenceLength, int clsId, int sepId, std::vector<bool> wordStartById = {},
                              double shortSequenceProbability = 0.0);

    std::vector<PretrainingExample> build(const std::vector<std::vector<int>>& sentences,
                                          PortableRandom& random) const;

    int sequenceLength() const { return sequenceLength_; }
    // Longest A + B: the sequence length less [CLS] and two [SEP].
    int maxContentTokens() const { return sequenceLength_ - 3; }

private:
    int drawTarget(PortableRandom& random) const;
    void emitChunk(const std::vector<std::vector<int>>& chunk, PortableRandom& random,
                   std::vector<PretrainingExample>& out) const;
    std::size_t splitInside(const std::vector<int>& tokens, PortableRandom& random) const;
    PretrainingExample assemble(const std::vector<int>& a, const std::vector<int>& b, bool swapped) const;

    int sequenceLength_;
    int clsId_;
    int sepId_;
    std::vector<bool> wordStartById_;
    double shortSequenceProbability_;
};

} // namespace sahaj::text
