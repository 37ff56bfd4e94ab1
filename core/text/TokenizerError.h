#pragma once

#include <stdexcept>
#include <string>

namespace sahaj::text {

// Thrown when a tokenizer.json cannot be used (unreadable, not JSON, unsupported component, broken
// vocabulary) and when a text cannot be tokenized (a character outside the vocabulary while the model
// has no unknown token). The message names the file and the problem.
class TokenizerError : public std::runtime_error {
public:
    explicit TokenizerError(const std::string& what) : std::runtime_error(what) {}
};

} // namespace sahaj::text
