#include "core/store/EpochContribution.h"

#include "core/store/LedgerLimits.h"

#include <cmath>
#include <stdexcept>

namespace sahaj::store {

namespace {

[[noreturn]] void refuseContribution(const QString& problem) {
    throw std::invalid_argument(QStringLiteral("epoch contribution refused: %1").arg(problem).toStdString());
}

void checkCount(const char* field, qint64 value) {
    if (value < 0)
        refuseContribution(QStringLiteral("%1 is negative (%2)").arg(QLatin1String(field)).arg(value));
}

void checkName(const char* field, const QString& value, qsizetype maxLength) {
    if (value.isEmpty())
        refuseContribution(QStringLiteral("%1 is empty").arg(QLatin1String(field)));
    if (value.size() > maxLength)
        refuseContribution(QStringLiteral("%1 has %2 characters, over its limit of %3")
                               .arg(QLatin1String(field))
                               .arg(value.size())
                               .arg(maxLength));
}

} // namespace

void EpochContribution::validate() const {
    if (timeMs < 0 || timeMs > LedgerLimits::kMaxTimeMs)
        refuseContribution(
            QStringLiteral("time %1 ms is outside 0..%2").arg(timeMs).arg(LedgerLimits::kMaxTimeMs));
    checkName("run id", runId, LedgerLimits::kMaxRunIdLength);
    checkCount("epoch", epoch);
    checkCount("samples", samples);
    checkCount("tokens", tokens);
    if (!std::isfinite(computeSeconds) || computeSeconds < 0)
        refuseContribution(
            QStringLiteral("compute seconds (%1) is not a finite non-negative number").arg(computeSeconds));
    // Written so that NaN fails too.
    if (!(batchShare >= 0.0 && batchShare <= 1.0))
        refuseContribution(QStringLiteral("share of the batch (%1) is outside 0..1").arg(batchShare));
    checkCount("bytes sent", bytesSent);
    checkCount("bytes received", bytesReceived);
    if (groupSize < 1)
        refuseContribution(QStringLiteral("group size %1 is below 1").arg(groupSize));
    checkName("role", role, LedgerLimits::kMaxRoleLength);
}

} // namespace sahaj::store
