#pragma once

#include "core/text/Decoder.h"

namespace sahaj::text {

// The "Metaspace" decoder: the replacement character (▁) becomes a space again, except in the first
// token, where the replacements the pre-tokenizer prepended are dropped (unless it never prepends).
class DecoderMetaspace : public Decoder {
public:
    DecoderMetaspace(char32_t replacement, bool dropInFirstToken)
        : replacement_(replacement), dropInFirstToken_(dropInFirstToken) {}
    QString decode(const std::vector<QString>& tokens) const override;

private:
    char32_t replacement_;
    bool dropInFirstToken_;
};

} // namespace sahaj::text
