#include "core/store/TransferSample.h"

#include "core/store/LedgerLimits.h"

#include <QString>

#include <stdexcept>

namespace sahaj::store {

namespace {

[[noreturn]] void refuseSample(const QString& problem) {
    throw std::invalid_argument(QStringLiteral("transfer sample refused: %1").arg(problem).toStdString());
}

} // namespace

void TransferSample::validate() const {
    if (timeMs < 0 || timeMs > LedgerLimits::kMaxTimeMs)
        refuseSample(QStringLiteral("time %1 ms is outside 0..%2").arg(timeMs).arg(LedgerLimits::kMaxTimeMs));
    if (upBytes < 0)
        refuseSample(QStringLiteral("up bytes is negative (%1)").arg(upBytes));
    if (downBytes < 0)
        refuseSample(QStringLiteral("down bytes is negative (%1)").arg(downBytes));
}

} // namespace sahaj::store
