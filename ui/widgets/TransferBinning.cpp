#include "ui/widgets/TransferBinning.h"

#include <algorithm>

namespace sahaj::ui {

qint64 TransferBinning::binLengthMs(qint64 spanMs, int maxBins) {
    if (spanMs <= 0 || maxBins < 1)
        return kSampleMs;
    const qint64 shortest = (spanMs + maxBins - 1) / maxBins;
    return std::max<qint64>(1, (shortest + kSampleMs - 1) / kSampleMs) * kSampleMs;
}

std::vector<TransferBinning::Bin> TransferBinning::bin(const std::vector<store::TransferSample>& samples,
                                                       qint64 fromMs, qint64 toMs, int maxBins) {
    if (toMs <= fromMs || maxBins < 1)
        return {};
    const qint64 span = toMs - fromMs;
    const qint64 length = binLengthMs(span, maxBins);
    const qint64 count = (span + length - 1) / length; // <= maxBins, since length >= span / maxBins
    std::vector<Bin> bins(static_cast<std::size_t>(count));
    for (qint64 i = 0; i < count; ++i) {
        Bin& bin = bins[static_cast<std::size_t>(i)];
        bin.startMs = fromMs + i * length;
        bin.lengthMs = std::min(length, toMs - bin.startMs);
    }
    for (const store::TransferSample& sample : samples) {
        if (sample.timeMs < fromMs || sample.timeMs >= toMs)
            continue;
        Bin& bin = bins[static_cast<std::size_t>((sample.timeMs - fromMs) / length)];
        bin.upBytes += sample.upBytes;
        bin.downBytes += sample.downBytes;
    }
    return bins;
}

} // namespace sahaj::ui
