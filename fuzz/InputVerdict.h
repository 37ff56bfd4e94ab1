#pragma once

#include <exception>

namespace sahaj::fuzz {

// What a fuzz target made of one input, told only when asked: refusals are the expected outcome for
// almost every fuzz input and stay silent. With SAHAJ_FUZZ_EXPLAIN set in the environment, each verdict
// goes to stderr, so that running a target on one file says whether it was accepted or why not (how to
// check a new seed, docs/fuzzing.md).
class InputVerdict {
public:
    static void accepted();
    static void refused(const std::exception& reason);
};

} // namespace sahaj::fuzz
