#include "core/eval/BioTag.h"

#include <algorithm>

namespace sahaj::eval {

std::optional<BioTag> BioTag::parse(const QString& tag) {
    if (tag == QLatin1String("O"))
        return BioTag{};
    if (tag.size() < 3 || tag[1] != QLatin1Char('-'))
        return std::nullopt;
    BioTag parsed;
    if (tag[0] == QLatin1Char('B'))
        parsed.kind = Kind::Begin;
    else if (tag[0] == QLatin1Char('I'))
        parsed.kind = Kind::Inside;
    else
        return std::nullopt;
    parsed.type = tag.mid(2);
    if (std::any_of(parsed.type.cbegin(), parsed.type.cend(), [](QChar c) { return c.isSpace(); }))
        return std::nullopt;
    return parsed;
}

} // namespace sahaj::eval
