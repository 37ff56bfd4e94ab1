#pragma once

// Command-line reading for the test peer programs: `--name value` pairs, a fallback when absent.
#include <string>

namespace sahaj::test {

inline std::string argument(int argc, char** argv, const std::string& name, const std::string& fallback) {
    for (int i = 1; i + 1 < argc; ++i)
        if (argv[i] == "--" + name)
            return argv[i + 1];
    return fallback;
}

} // namespace sahaj::test
