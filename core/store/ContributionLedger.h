#pragma once

#include "core/store/ContributionTotals.h"
#include "core/store/EpochContribution.h"
#include "core/store/HistoryBucket.h"
#include "core/store/SqliteDatabase.h"
#include "core/store/TransferSample.h"
#include "core/store/TransferTotals.h"

#include <QString>
#include <QTimeZone>

#include <vector>

namespace sahaj::store {

// What this peer has contributed, kept on disk for the desktop app's contribution and bandwidth panels:
// one row per completed epoch it took part in, one row per interval of transfer for the speed graph.
// The file is an SQLite database in WAL mode (see SqliteDatabase): every record is its own transaction,
// and once a record call returns, the row survives the process being killed (docs/ledger.md).
//
// One thread owns a ledger: its connection is not shared between threads. Another thread or process
// (the GUI beside a headless node) opens its own ledger on the same file to read it.
//
// Records are validated (std::invalid_argument, nothing written); SQLite failures (disk full, a database
// locked past the busy timeout) throw SqliteError.
class ContributionLedger {
public:
    // The schema this program writes; PRAGMA user_version holds it.
    static constexpr int kSchemaVersion = 1;
    static constexpr qint64 kDayMs = 24 * 3600 * 1000;

    // Opens the ledger at `path`, creating it (and its schema) when no file is there and bringing an
    // older schema up to date. Throws SqliteError when the file is not an SQLite database, is corrupt or
    // has a schema from a newer version; such a file is left as it was.
    explicit ContributionLedger(const QString& path);

    // Adds `contribution`. False, with nothing written, when this run's epoch is already recorded: a
    // caller unsure whether it recorded an epoch before a crash may simply record it again.
    bool recordEpoch(const EpochContribution& contribution);
    void recordTransfer(const TransferSample& sample);

    ContributionTotals totals() const { return totalsSince(0); }
    // The epochs completed at or after `sinceMs`.
    ContributionTotals totalsSince(qint64 sinceMs) const;
    // One bucket per local hour or day of `zone` that overlaps [fromMs, toMs), in order, empty ones
    // included; each sums all its epochs, also those outside [fromMs, toMs). Throws std::invalid_argument
    // as BucketCalendar::edges() does.
    std::vector<HistoryBucket> history(qint64 fromMs, qint64 toMs, HistoryBucket::Size size,
                                       const QTimeZone& zone) const;
    // The transfer samples from `sinceMs` on: today's transfer with
    // BucketCalendar::startOfDay(now, zone).
    TransferTotals transferSince(qint64 sinceMs) const;
    // The `count` most recent epochs (fewer when the ledger holds fewer), oldest first. Throws
    // std::invalid_argument on a negative count.
    std::vector<EpochContribution> lastEpochs(int count) const;
    // The samples in [fromMs, toMs), in time order.
    std::vector<TransferSample> transferSamples(qint64 fromMs, qint64 toMs) const;
    // Deletes the transfer samples more than `keepDays` days older than `nowMs`; returns how many.
    // Epoch rows are kept: they are the history. Throws std::invalid_argument on a negative keepDays or
    // a time outside 0..LedgerLimits::kMaxTimeMs.
    qint64 pruneTransferSamples(qint64 nowMs, int keepDays);

    const SqliteDatabase& database() const { return database_; }

private:
    SqliteDatabase database_;
};

} // namespace sahaj::store
