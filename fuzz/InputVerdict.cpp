#include "fuzz/InputVerdict.h"

#include <cstdio>
#include <cstdlib>

namespace sahaj::fuzz {

namespace {

bool explaining() {
    static const bool explain = std::getenv("SAHAJ_FUZZ_EXPLAIN") != nullptr;
    return explain;
}

} // namespace

void InputVerdict::accepted() {
    if (explaining())
        std::fprintf(stderr, "accepted\n");
}

void InputVerdict::refused(const std::exception& reason) {
    if (explaining())
        std::fprintf(stderr, "refused: %s\n", reason.what());
}

} // namespace sahaj::fuzz
