#include "core/compute/DottedVersion.h"

#include <algorithm>

namespace sahaj::compute {

std::optional<DottedVersion> DottedVersion::parse(std::string_view text) {
    DottedVersion version;
    std::size_t start = 0;
    while (true) {
        const std::size_t dot = text.find('.', start);
        const std::string_view part =
            text.substr(start, dot == std::string_view::npos ? text.npos : dot - start);
        if (part.empty() || part.size() > 9 ||
            !std::all_of(part.begin(), part.end(), [](char c) { return c >= '0' && c <= '9'; }))
            return std::nullopt;
        int value = 0;
        for (char c : part)
            value = value * 10 + (c - '0');
        version.parts.push_back(value);
        if (version.parts.size() > 8)
            return std::nullopt;
        if (dot == std::string_view::npos)
            return version;
        start = dot + 1;
    }
}

bool operator<(const DottedVersion& a, const DottedVersion& b) {
    const std::size_t n = std::max(a.parts.size(), b.parts.size());
    for (std::size_t i = 0; i < n; ++i) {
        const int x = i < a.parts.size() ? a.parts[i] : 0;
        const int y = i < b.parts.size() ? b.parts[i] : 0;
        if (x != y)
            return x < y;
    }
    return false;
}

} // namespace sahaj::compute
