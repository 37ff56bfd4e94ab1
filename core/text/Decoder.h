#pragma once

#include <QString>

#include <vector>

namespace sahaj::text {

// The decoder of a tokenizer.json: turns token strings back into text.
class Decoder {
public:
    virtual ~Decoder() = default;
    virtual QString decode(const std::vector<QString>& tokens) const = 0;
};

} // namespace sahaj::text
