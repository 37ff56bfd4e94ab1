#pragma once

#include <QString>

#include <chrono>
#include <cstdint>

namespace sahaj::fetch {

// How one HTTP transfer behaves. Every wait has a deadline: a server that does not answer, or answers
// slower than `stallBytesPerSecond` for `stallTime`, is given up on and the next place is tried.
struct TransferSettings {
    std::chrono::milliseconds connectTimeout{15000};
    // Below this rate for `stallTime`, the transfer counts as stalled (curl's low-speed limit).
    std::int64_t stallBytesPerSecond = 1024;
    std::chrono::seconds stallTime{30};
    // The volunteer's download limit in bytes per second; 0 for none.
    std::int64_t maxBytesPerSecond = 0;
    // Redirects followed (a mirror on a release host redirects to its storage); only to https.
    int maxRedirects = 5;
    QString userAgent = QStringLiteral("Sahaj");
};

} // namespace sahaj::fetch
