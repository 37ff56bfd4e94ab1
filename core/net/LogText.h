#pragma once

#include <QString>

#include <cstddef>
#include <string>
#include <string_view>

namespace sahaj::net {

// Text another peer chose (a run id, a user name, a donor's refusal), made safe to put in a log line or
// on screen: invalid UTF-8 becomes U+FFFD, control and format characters (line breaks, terminal escapes,
// right-to-left overrides that would make a line read as something else) become U+FFFD too, and it is cut
// to `maxCharacters` with an ellipsis. Letters of any script, Bengali included, stay as they are.
class LogText {
public:
    static constexpr std::size_t kDefaultMaxCharacters = 120;

    static QString of(std::string_view remote, std::size_t maxCharacters = kDefaultMaxCharacters);
    static std::string utf8(std::string_view remote, std::size_t maxCharacters = kDefaultMaxCharacters);
    // The first 8 hex digits of raw bytes (a peer id, a group id, a hash): enough to tell them apart in a
    // log line, never to identify anything.
    static std::string shortHex(std::string_view bytes);
};

} // namespace sahaj::net
