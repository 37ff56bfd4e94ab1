#pragma once

#include <QString>

namespace sahaj::text {

// One step of the normalizer of a tokenizer.json: rewrites a piece of text in place. Implementations
// are immutable after construction and safe to call from several threads.
class Normalizer {
public:
    virtual ~Normalizer() = default;
    virtual void normalize(QString& text) const = 0;
};

} // namespace sahaj::text
