#include "core/store/ContributionLedger.h"

#include "core/store/BucketCalendar.h"
#include "core/store/LedgerLimits.h"

#include <algorithm>
#include <array>
#include <limits>
#include <stdexcept>

namespace sahaj::store {

namespace {

constexpr double kSecondsPerHour = 3600.0;

// Step i takes the schema from version i to i + 1. The CHECK constraints repeat validate()'s rules, so
// that the file stays sound even should a bug slip past them; STRICT tables refuse values of the wrong
// type instead of storing them as they come.
constexpr std::array<const char*, ContributionLedger::kSchemaVersion> kSchemaSteps = {
    R"sql(
    CREATE TABLE epoch_contribution (
        id INTEGER PRIMARY KEY,
        time_ms INTEGER NOT NULL CHECK (time_ms >= 0),
        run_id TEXT NOT NULL CHECK (length(run_id) > 0),
        epoch INTEGER NOT NULL CHECK (epoch >= 0),
        samples INTEGER NOT NULL CHECK (samples >= 0),
        tokens INTEGER NOT NULL CHECK (tokens >= 0),
        compute_seconds REAL NOT NULL CHECK (compute_seconds >= 0),
        batch_share REAL NOT NULL CHECK (batch_share BETWEEN 0 AND 1),
        bytes_sent INTEGER NOT NULL CHECK (bytes_sent >= 0),
        bytes_received INTEGER NOT NULL CHECK (bytes_received >= 0),
        group_size INTEGER NOT NULL CHECK (group_size >= 1),
        role TEXT NOT NULL CHECK (length(role) > 0),
        UNIQUE (run_id, epoch)
    ) STRICT;
    CREATE INDEX epoch_contribution_by_time ON epoch_contribution (time_ms);
    CREATE TABLE transfer_sample (
        id INTEGER PRIMARY KEY,
        time_ms INTEGER NOT NULL CHECK (time_ms >= 0),
        up_bytes INTEGER NOT NULL CHECK (up_bytes >= 0),
        down_bytes INTEGER NOT NULL CHECK (down_bytes >= 0)
    ) STRICT;
    CREATE INDEX transfer_sample_by_time ON transfer_sample (time_ms);
    )sql",
};

[[noreturn]] void refuseLedger(const QString& problem) {
    throw std::invalid_argument(QStringLiteral("contribution ledger: %1").arg(problem).toStdString());
}

// Both are non-negative: the table's CHECK constraints see to that.
qint64 checkedSum(qint64 sum, qint64 value, const char* field) {
    if (value > std::numeric_limits<qint64>::max() - sum)
        throw std::overflow_error(QStringLiteral("contribution ledger: the sum of %1 in a history bucket "
                                                 "overflows 64 bits")
                                      .arg(QLatin1String(field))
                                      .toStdString());
    return sum + value;
}

} // namespace

ContributionLedger::ContributionLedger(const QString& path) : database_(SqliteDatabase::open(path)) {
    database_.migrate(kSchemaSteps);
}

bool ContributionLedger::recordEpoch(const EpochContribution& contribution) {
    contribution.validate();
    // Outside a transaction every statement is its own: committed, in the log, when it returns.
    SqliteStatement insert = database_.prepare(
        "INSERT INTO epoch_contribution (time_ms, run_id, epoch, samples, tokens, compute_seconds, "
        "batch_share, bytes_sent, bytes_received, group_size, role) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
        "ON CONFLICT (run_id, epoch) DO NOTHING");
    insert.bindInt64(1, contribution.timeMs)
        .bindText(2, contribution.runId)
        .bindInt64(3, contribution.epoch)
        .bindInt64(4, contribution.samples)
        .bindInt64(5, contribution.tokens)
        .bindDouble(6, contribution.computeSeconds)
        .bindDouble(7, contribution.batchShare)
        .bindInt64(8, contribution.bytesSent)
        .bindInt64(9, contribution.bytesReceived)
        .bindInt64(10, contribution.groupSize)
        .bindText(11, contribution.role);
    insert.run();
    return database_.changes() == 1;
}

void ContributionLedger::recordTransfer(const TransferSample& sample) {
    sample.validate();
    SqliteStatement insert =
        database_.prepare("INSERT INTO transfer_sample (time_ms, up_bytes, down_bytes) VALUES (?, ?, ?)");
    insert.bindInt64(1, sample.timeMs).bindInt64(2, sample.upBytes).bindInt64(3, sample.downBytes);
    insert.run();
}

ContributionTotals ContributionLedger::totalsSince(qint64 sinceMs) const {
    // SUM fails with "integer overflow" rather than wrap; TOTAL is SUM in floating point.
    SqliteStatement query = database_.prepare(
        "SELECT count(*), coalesce(sum(samples), 0), coalesce(sum(tokens), 0), total(compute_seconds), "
        "coalesce(sum(bytes_sent), 0), coalesce(sum(bytes_received), 0) FROM epoch_contribution "
        "WHERE time_ms >= ?");
    query.bindInt64(1, sinceMs);
    query.step();
    ContributionTotals totals;
    totals.epochsJoined = query.columnInt64(0);
    totals.samples = query.columnInt64(1);
    totals.tokens = query.columnInt64(2);
    totals.computeHours = query.columnDouble(3) / kSecondsPerHour;
    totals.bytesSent = query.columnInt64(4);
    totals.bytesReceived = query.columnInt64(5);
    return totals;
}

std::vector<HistoryBucket> ContributionLedger::history(qint64 fromMs, qint64 toMs, HistoryBucket::Size size,
                                                       const QTimeZone& zone) const {
    const std::vector<qint64> edges = BucketCalendar::edges(fromMs, toMs, size, zone);
    if (edges.empty())
        return {};
    std::vector<HistoryBucket> buckets(edges.size() - 1);
    for (std::size_t i = 0; i < buckets.size(); ++i) {
        buckets[i].startMs = edges[i];
        buckets[i].endMs = edges[i + 1];
    }
    // Local days and hours are not a fixed arithmetic of UTC times (daylight saving), so rows are summed
    // here, walking the buckets and the rows in the same order.
    SqliteStatement rows = database_.prepare("SELECT time_ms, samples, tokens, compute_seconds "
                                             "FROM epoch_contribution WHERE time_ms >= ? AND time_ms < ? "
                                             "ORDER BY time_ms");
    rows.bindInt64(1, edges.front()).bindInt64(2, edges.back());
    std::size_t bucket = 0;
    while (rows.step()) {
        const qint64 timeMs = rows.columnInt64(0);
        while (timeMs >= buckets[bucket].endMs)
            ++bucket;
        HistoryBucket& into = buckets[bucket];
        ++into.epochs;
        into.samples = checkedSum(into.samples, rows.columnInt64(1), "samples");
        into.tokens = checkedSum(into.tokens, rows.columnInt64(2), "tokens");
        into.computeHours += rows.columnDouble(3) / kSecondsPerHour;
    }
    return buckets;
}

TransferTotals ContributionLedger::transferSince(qint64 sinceMs) const {
    SqliteStatement query =
        database_.prepare("SELECT coalesce(sum(up_bytes), 0), coalesce(sum(down_bytes), 0) "
                          "FROM transfer_sample WHERE time_ms >= ?");
    query.bindInt64(1, sinceMs);
    query.step();
    return TransferTotals{query.columnInt64(0), query.columnInt64(1)};
}

std::vector<EpochContribution> ContributionLedger::lastEpochs(int count) const {
    if (count < 0)
        refuseLedger(QStringLiteral("cannot list %1 epochs").arg(count));
    SqliteStatement query = database_.prepare(
        "SELECT time_ms, run_id, epoch, samples, tokens, compute_seconds, batch_share, bytes_sent, "
        "bytes_received, group_size, role FROM epoch_contribution ORDER BY time_ms DESC, id DESC LIMIT ?");
    query.bindInt64(1, count);
    std::vector<EpochContribution> epochs;
    while (query.step()) {
        EpochContribution epoch;
        epoch.timeMs = query.columnInt64(0);
        epoch.runId = query.columnText(1);
        epoch.epoch = query.columnInt64(2);
        epoch.samples = query.columnInt64(3);
        epoch.tokens = query.columnInt64(4);
        epoch.computeSeconds = query.columnDouble(5);
        epoch.batchShare = query.columnDouble(6);
        epoch.bytesSent = query.columnInt64(7);
        epoch.bytesReceived = query.columnInt64(8);
        epoch.groupSize = static_cast<int>(query.columnInt64(9));
        epoch.role = query.columnText(10);
        epochs.push_back(std::move(epoch));
    }
    std::reverse(epochs.begin(), epochs.end());
    return epochs;
}

std::vector<TransferSample> ContributionLedger::transferSamples(qint64 fromMs, qint64 toMs) const {
    SqliteStatement query = database_.prepare("SELECT time_ms, up_bytes, down_bytes FROM transfer_sample "
                                              "WHERE time_ms >= ? AND time_ms < ? ORDER BY time_ms, id");
    query.bindInt64(1, fromMs).bindInt64(2, toMs);
    std::vector<TransferSample> samples;
    while (query.step())
        samples.push_back(TransferSample{query.columnInt64(0), query.columnInt64(1), query.columnInt64(2)});
    return samples;
}

qint64 ContributionLedger::pruneTransferSamples(qint64 nowMs, int keepDays) {
    if (nowMs < 0 || nowMs > LedgerLimits::kMaxTimeMs)
        refuseLedger(QStringLiteral("time %1 ms is outside 0..%2").arg(nowMs).arg(LedgerLimits::kMaxTimeMs));
    if (keepDays < 0)
        refuseLedger(QStringLiteral("cannot keep %1 days of transfer samples").arg(keepDays));
    // int days fit: INT_MAX days of ms is about 1.9e17, far below the 64-bit range.
    SqliteStatement prune = database_.prepare("DELETE FROM transfer_sample WHERE time_ms < ?");
    prune.bindInt64(1, nowMs - qint64{keepDays} * kDayMs);
    prune.run();
    return database_.changes();
}

} // namespace sahaj::store
