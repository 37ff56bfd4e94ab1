#include "core/engine/EngineLimits.h"

#include <cmath>

namespace sahaj::engine {

QString EngineLimits::problem() const {
    if (!std::isfinite(computePercent) || computePercent < 1.0 || computePercent > 100.0)
        return QStringLiteral("the compute limit must be between 1 and 100 percent");
    if (microBatch < 1 || microBatch > kMaxMicroBatch)
        return QStringLiteral("the micro-batch must be between 1 and %1 samples").arg(kMaxMicroBatch);
    for (const double cap : {maxUploadMbps, maxDownloadMbps})
        if (!std::isfinite(cap) || cap < 0.0 || cap > kMaxMbps)
            return QStringLiteral("a bandwidth cap must be between 0 (none) and %1 Mbit/s").arg(kMaxMbps);
    // A peer that averages must move its share of every round: a cap below 0.1 Mbit/s would keep a
    // sahajBERT round (36 MB in fp16) going for most of an hour and stall every group it joins.
    for (const double cap : {maxUploadMbps, maxDownloadMbps})
        if (cap > 0.0 && cap < 0.1)
            return QStringLiteral("a bandwidth cap below 0.1 Mbit/s would stall every round this peer "
                                  "joins: set at least 0.1, or no cap");
    return {};
}

} // namespace sahaj::engine
