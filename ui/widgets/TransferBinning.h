#pragma once

#include "core/store/TransferSample.h"

#include <vector>

namespace sahaj::ui {

// Groups the ledger's one-minute transfer samples into at most a few hundred equal bins for the speed
// graph (a week holds 10 080 samples; a plot a few hundred pixels wide needs no more points than it has
// pixels). Every sample in the period lands in exactly one bin, so the bytes add up to the same total.
class TransferBinning {
public:
    struct Bin {
        qint64 startMs = 0;
        qint64 lengthMs = 0; // the last bin ends at the period's end, so it may be shorter
        qint64 upBytes = 0;
        qint64 downBytes = 0;

        double upBytesPerSecond() const { return lengthMs > 0 ? upBytes * 1000.0 / lengthMs : 0.0; }
        double downBytesPerSecond() const { return lengthMs > 0 ? downBytes * 1000.0 / lengthMs : 0.0; }
    };

    static constexpr qint64 kSampleMs = 60'000;

    // The bins of [fromMs, toMs), oldest first, each a whole number of minutes long, at most maxBins of
    // them, empty ones included. Samples outside the period are left out. No bins for an empty period
    // or maxBins < 1.
    static std::vector<Bin> bin(const std::vector<store::TransferSample>& samples, qint64 fromMs, qint64 toMs,
                                int maxBins);
    // The length of one bin for a period of spanMs: one sample at least, a whole number of samples.
    static qint64 binLengthMs(qint64 spanMs, int maxBins);
};

} // namespace sahaj::ui
