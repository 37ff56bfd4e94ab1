#pragma once

#include <QString>

#include <vector>

namespace sahaj::text {

// The result of tokenizing one text or one pair of texts: token ids, the segment (type) id of each
// token, and the token strings as Hugging Face tokenizers reports them (pieces of the normalized
// text, so an unknown character keeps its own spelling even though its id is the unknown id).
struct Encoding {
    std::vector<int> ids;
    std::vector<int> typeIds;
    std::vector<QString> tokens;
};

} // namespace sahaj::text
