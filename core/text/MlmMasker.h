#pragma once

#include "core/text/PretrainingExample.h"

#include <vector>

namespace sahaj::text {

class PortableRandom;

// Masked-language-model corruption (BERT/ALBERT): selects `probability` of the example's ordinary tokens
// (never special tokens such as [CLS], [SEP], <pad>), rounded, and at least one when there is any;
// replaces a selected token by [MASK] with `maskFraction`, by a random ordinary token with
// `randomFraction`, and keeps it otherwise. Labels hold the original id at selected positions and
// kIgnoreLabel elsewhere. Selecting an exact count (as BERT's data preparation does) rather than
// tossing a coin per token keeps the number of predictions per sequence steady.
class MlmMasker {
public:
    MlmMasker(int vocabSize, int maskId, std::vector<int> specialIds, double probability = 0.15,
              double maskFraction = 0.8, double randomFraction = 0.1);

    void mask(PretrainingExample& example, PortableRandom& random) const;

    double probability() const { return probability_; }

private:
    bool isSpecial(std::int64_t id) const;

    int vocabSize_;
    int maskId_;
    std::vector<bool> special_;    // by id
    std::vector<int> ordinaryIds_; // replacement candidates for the "random token" case
    double probability_;
    double maskFraction_;
    double randomFraction_;
};

} // namespace sahaj::text
