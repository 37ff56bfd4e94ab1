#include "core/text/PostProcessorTemplate.h"

namespace sahaj::text {

void PostProcessorTemplate::apply(const Encoding& a, const Encoding* b, bool addSpecialTokens,
                                  bool withTokens, Encoding& out) const {
    out = Encoding{};
    for (const Item& item : b ? pair_ : single_) {
        if (item.isSequence) {
            const Encoding& sequence = item.sequence == 0 ? a : *b;
            out.ids.insert(out.ids.end(), sequence.ids.begin(), sequence.ids.end());
            out.typeIds.insert(out.typeIds.end(), sequence.ids.size(), item.typeId);
            if (withTokens)
                out.tokens.insert(out.tokens.end(), sequence.tokens.begin(), sequence.tokens.end());
        } else if (addSpecialTokens) {
            out.ids.insert(out.ids.end(), item.ids.begin(), item.ids.end());
            out.typeIds.insert(out.typeIds.end(), item.ids.size(), item.typeId);
            if (withTokens)
                out.tokens.insert(out.tokens.end(), item.tokens.begin(), item.tokens.end());
        }
    }
}

} // namespace sahaj::text
