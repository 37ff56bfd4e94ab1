#pragma once

#include <optional>
#include <string_view>
#include <vector>

namespace sahaj::compute {

// A version made of dot-separated whole numbers ("535.104.05", "8.6"), compared part by part, a missing
// part counting as 0: how drivers and compute capabilities are compared.
struct DottedVersion {
    std::vector<int> parts;

    // nullopt unless the text is 1 to 8 parts of 1 to 9 digits each.
    static std::optional<DottedVersion> parse(std::string_view text);
    friend bool operator<(const DottedVersion& a, const DottedVersion& b);
};

} // namespace sahaj::compute
