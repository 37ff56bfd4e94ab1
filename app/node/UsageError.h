#pragma once

#include <stdexcept>
#include <string>

namespace sahaj::node {

// Thrown for a mistake in how the command was invoked (missing or malformed option); the dispatcher
// prints it with a pointer to the help and exits with status 2, as is usual for command-line tools.
class UsageError : public std::runtime_error {
public:
    explicit UsageError(const std::string& what) : std::runtime_error(what) {}
};

} // namespace sahaj::node
