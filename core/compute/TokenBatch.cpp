#include "core/compute/TokenBatch.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace sahaj::compute {

TokenBatch TokenBatch::padded(std::int64_t rows, std::int64_t width, std::int64_t pad) {
    if (rows < 0 || width < 0)
        throw std::invalid_argument("a token batch of " + std::to_string(rows) + " x " + std::to_string(width));
    TokenBatch batch;
    batch.rows = rows;
    batch.width = width;
    const auto cells = static_cast<std::size_t>(rows * width);
    batch.inputIds.assign(cells, pad);
    batch.attentionMask.assign(cells, 0);
    batch.tokenTypeIds.assign(cells, 0);
    batch.mlmLabels.assign(cells, kIgnoreLabel);
    batch.sopLabels.assign(static_cast<std::size_t>(rows), 0);
    return batch;
}

std::int64_t TokenBatch::tokens() const {
    return std::count_if(attentionMask.begin(), attentionMask.end(), [](std::int64_t v) { return v != 0; });
}

std::int64_t TokenBatch::maskedTokens() const {
    return std::count_if(mlmLabels.begin(), mlmLabels.end(), [](std::int64_t v) { return v != kIgnoreLabel; });
}

TokenBatch TokenBatch::slice(std::int64_t begin, std::int64_t end) const {
    if (begin < 0 || end > rows || begin >= end)
        throw std::out_of_range("rows [" + std::to_string(begin) + ", " + std::to_string(end) +
                                ") of a batch of " + std::to_string(rows));
    std::int64_t used = 1; // at least one column, as for an all-padding micro-batch
    for (std::int64_t r = begin; r < end; ++r)
        for (std::int64_t c = width - 1; c >= used; --c)
            if (attentionMask[static_cast<std::size_t>(index(r, c))] != 0) {
                used = c + 1;
                break;
            }
    TokenBatch part;
    part.rows = end - begin;
    part.width = std::min(used, width);
    const auto copy = [&](const std::vector<std::int64_t>& from, std::vector<std::int64_t>& to) {
        to.reserve(static_cast<std::size_t>(part.rows * part.width));
        for (std::int64_t r = begin; r < end; ++r) {
            const auto first = from.begin() + index(r, 0);
            to.insert(to.end(), first, first + part.width);
        }
    };
    copy(inputIds, part.inputIds);
    copy(attentionMask, part.attentionMask);
    copy(tokenTypeIds, part.tokenTypeIds);
    copy(mlmLabels, part.mlmLabels);
    part.sopLabels.assign(sopLabels.begin() + begin, sopLabels.begin() + end);
    return part;
}

} // namespace sahaj::compute
