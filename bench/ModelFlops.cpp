#include "bench/ModelFlops.h"

namespace sahaj::bench {

double ModelFlops::forward(const model::AlbertConfig& c, std::int64_t batch, std::int64_t sequence,
                           std::int64_t mlmPositions) {
    const double tokens = static_cast<double>(batch) * static_cast<double>(sequence);
    const double h = static_cast<double>(c.hiddenSize);
    const double e = static_cast<double>(c.embeddingSize);
    const double ffn = static_cast<double>(c.intermediateSize);
    const double len = static_cast<double>(sequence);
    // Multiply-adds per token of one transformer layer: Q, K, V and output projections, the two FFN
    // matrices, then attention scores (QK^T) and the weighted sum of values, each len*h per token.
    const double perLayer = 4.0 * h * h + 2.0 * h * ffn + 2.0 * len * h;
    const double encoder = tokens * (e * h + static_cast<double>(c.numHiddenLayers) * perLayer);
    // Pooler and sentence-order classifier once per sequence; MLM transform and tied decoder per position.
    const double heads = static_cast<double>(batch) * (h * h + 2.0 * h) +
                         static_cast<double>(mlmPositions) * (h * e + e * static_cast<double>(c.vocabSize));
    return 2.0 * (encoder + heads);
}

} // namespace sahaj::bench
