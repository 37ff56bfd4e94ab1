#pragma once

#include "core/compute/TokenBatch.h"
#include "core/compute/core_channel.pb.h"

#include <cstdint>

namespace sahaj::compute {

// A TokenBatch on the core channel, checked on arrival in syntax and meaning like every message that
// crosses a process boundary: sizes that match rows x width, ids inside the vocabulary, masks and token
// types that are 0 or 1, MLM labels that are ids or kIgnoreLabel, SOP labels 0 or 1.
class TokenBatchMessage {
public:
    struct Limits {
        std::int64_t vocabulary = 0;
        std::int64_t typeVocabulary = 2;
        std::int64_t maxWidth = 0; // the model's positions
        std::int64_t maxRows = 4096;
    };

    static void encode(const TokenBatch& batch, corechannel::TokenBatch& message);
    // Throws std::invalid_argument naming the first problem.
    static TokenBatch decode(const corechannel::TokenBatch& message, const Limits& limits);
};

} // namespace sahaj::compute
