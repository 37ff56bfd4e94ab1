#include "core/eval/EntitySpans.h"

#include "core/eval/BioTag.h"

#include <optional>
#include <stdexcept>

namespace sahaj::eval {

std::vector<EntitySpan> EntitySpans::extract(const QStringList& tags) {
    std::vector<EntitySpan> spans;
    std::optional<EntitySpan> open;
    const auto close = [&](int end) {
        if (open) {
            open->end = end;
            spans.push_back(std::move(*open));
            open.reset();
        }
    };
    for (int index = 0; index < tags.size(); ++index) {
        const std::optional<BioTag> tag = BioTag::parse(tags[index]);
        if (!tag)
            throw std::invalid_argument(QStringLiteral("EntitySpans: tag '%1' at position %2 is not %3")
                                            .arg(tags[index])
                                            .arg(index)
                                            .arg(BioTag::syntax())
                                            .toStdString());
        const bool continues = tag->kind == BioTag::Kind::Inside && open && open->type == tag->type;
        if (continues)
            continue;
        close(index);
        if (tag->kind != BioTag::Kind::Outside)
            open = EntitySpan{tag->type, index, index};
    }
    close(static_cast<int>(tags.size()));
    return spans;
}

} // namespace sahaj::eval
