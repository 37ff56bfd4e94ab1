#include "core/text/MlmMasker.h"

#include "core/text/PortableRandom.h"

#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>

namespace sahaj::text {

MlmMasker::MlmMasker(int vocabSize, int maskId, std::vector<int> specialIds, double probability,
                     double maskFraction, double randomFraction)
    : vocabSize_(vocabSize), maskId_(maskId), special_(vocabSize > 0 ? vocabSize : 0, false),
      probability_(probability), maskFraction_(maskFraction), randomFraction_(randomFraction) {
    if (vocabSize <= 0)
        throw std::invalid_argument("MlmMasker: vocabulary size must be positive");
    if (maskId < 0 || maskId >= vocabSize)
        throw std::invalid_argument("MlmMasker: [MASK] id " + std::to_string(maskId) +
                                    " is outside the vocabulary");
    if (!(probability >= 0.0 && probability <= 1.0))
        throw std::invalid_argument("MLM probability must be in [0, 1], got " + std::to_string(probability));
    if (!(maskFraction >= 0.0 && randomFraction >= 0.0 && maskFraction + randomFraction <= 1.0))
        throw std::invalid_argument("MlmMasker: mask and random fractions must be >= 0 and sum to at most 1");
    for (const int id : specialIds) {
        if (id >= 0 && id < vocabSize)
            special_[id] = true;
    }
    special_[maskId] = true;
    for (int id = 0; id < vocabSize; ++id) {
        if (!special_[id])
            ordinaryIds_.push_back(id);
    }
    if (ordinaryIds_.empty())
        throw std::invalid_argument("MlmMasker: the vocabulary has no ordinary (non-special) tokens");
}

bool MlmMasker::isSpecial(std::int64_t id) const {
    // Ids outside the vocabulary cannot be predicted either; treat them like special tokens.
    return id < 0 || id >= vocabSize_ || special_[static_cast<std::size_t>(id)];
}

void MlmMasker::mask(PretrainingExample& example, PortableRandom& random) const {
    std::vector<std::size_t> candidates;
    candidates.reserve(example.inputIds.size());
    for (std::size_t i = 0; i < example.inputIds.size(); ++i) {
        if (!isSpecial(example.inputIds[i]))
            candidates.push_back(i);
    }
    example.mlmLabels.assign(example.inputIds.size(), kIgnoreLabel);
    auto count =
        static_cast<std::size_t>(std::llround(probability_ * static_cast<double>(candidates.size())));
    if (count == 0 && probability_ > 0.0 && !candidates.empty())
        count = 1;
    // Partial Fisher-Yates: the first `count` candidates become a uniform random subset.
    for (std::size_t k = 0; k < count; ++k) {
        const std::size_t pick = k + static_cast<std::size_t>(random.below(candidates.size() - k));
        std::swap(candidates[k], candidates[pick]);
        const std::size_t position = candidates[k];
        const std::int64_t original = example.inputIds[position];
        example.mlmLabels[position] = original;
        const double roll = random.uniform();
        if (roll < maskFraction_)
            example.inputIds[position] = maskId_;
        else if (roll < maskFraction_ + randomFraction_)
            example.inputIds[position] =
                ordinaryIds_[static_cast<std::size_t>(random.below(ordinaryIds_.size()))];
        // else: kept as it is, but still predicted
    }
}

} // namespace sahaj::text
