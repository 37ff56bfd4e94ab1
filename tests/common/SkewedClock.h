#pragma once

// Processes whose wall clock is off, as real processes: Debian's libfaketime preloaded (LD_PRELOAD), not a
// flag of our own code.

#include <QFile>
#include <QString>
#include <QStringList>
#include <QTest>

namespace sahaj::test {

inline const QString kFaketimeLibrary =
    QStringLiteral("/usr/lib/x86_64-linux-gnu/faketime/libfaketimeMT.so.1");

// The environment ("NAME=value", for launchNode) that shifts a process's wall clock by `skew` (libfaketime's
// FAKETIME: "-30s", "+3m"), its monotonic clock left alone so that its timeouts stay true.
inline QStringList skewedClockEnvironment(const QString& skew) {
    return {"LD_PRELOAD=" + kFaketimeLibrary, "FAKETIME=" + skew, "FAKETIME_DONT_FAKE_MONOTONIC=1"};
}

} // namespace sahaj::test

// In a test function that starts skewed processes: skips under AddressSanitizer (libfaketime and ASan both
// intercept the clock, and a process with both hangs at start; the main build runs the check) and fails when
// libfaketime is missing.
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SAHAJ_NEEDS_SKEWED_CLOCKS()                                                                          \
    QSKIP("the clang build's processes run under AddressSanitizer, which libfaketime cannot join; the main " \
          "build runs this check")
#endif
#endif
#ifndef SAHAJ_NEEDS_SKEWED_CLOCKS
#define SAHAJ_NEEDS_SKEWED_CLOCKS()                                                                          \
    do {                                                                                                     \
        if (!QFile::exists(sahaj::test::kFaketimeLibrary))                                                   \
            QFAIL("libfaketime is not installed (scripts/setup.sh installs the faketime package)");          \
    } while (false)
#endif
