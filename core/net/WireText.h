#pragma once

#include <QString>

#include <string>

namespace sahaj::net {

// Text this peer puts on the wire (a refusal, an error, what a dial met): cut to what every receiver's
// validator accepts (WireLimits::kMaxTextBytes), in characters rather than bytes so that it stays valid
// UTF-8, as a protobuf string must be. A character takes at most 3 bytes (a surrogate pair, 4 for 2).
class WireText {
public:
    static std::string bounded(const QString& text);
};

} // namespace sahaj::net
