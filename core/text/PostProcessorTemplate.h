#pragma once

#include "core/text/Encoding.h"

#include <QString>

#include <vector>

namespace sahaj::text {

// The "TemplateProcessing" post-processor: lays out the special tokens and the sequences of a single
// text or a pair ("[CLS] $A [SEP] $B:1 [SEP]:1") and gives every token its type id.
class PostProcessorTemplate {
public:
    // One element of a template: a sequence (A or B) or a special token (its ids and token strings).
    struct Item {
        bool isSequence = false;
        int sequence = 0; // 0 for A, 1 for B
        int typeId = 0;
        std::vector<int> ids;
        std::vector<QString> tokens;
    };

    PostProcessorTemplate(std::vector<Item> single, std::vector<Item> pair)
        : single_(std::move(single)), pair_(std::move(pair)) {}

    // Builds the final encoding from the tokens of A (and B when `b` is not null). Without special
    // tokens only the sequences are laid out, still with their template type ids. Token strings are
    // copied only `withTokens`.
    void apply(const Encoding& a, const Encoding* b, bool addSpecialTokens, bool withTokens,
               Encoding& out) const;

private:
    std::vector<Item> single_;
    std::vector<Item> pair_;
};

} // namespace sahaj::text
