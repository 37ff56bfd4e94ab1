// The contribution ledger: every record kind read back as written; totals, hour and day buckets at fixed
// times and UTC offsets; today's transfer; pruning; invalid records refused with nothing written; foreign,
// corrupt and newer files refused and left byte-identical; schema migration; and committed rows surviving
// a writer killed with SIGKILL mid-write.
//
// The crash test runs this executable again as the writer: with SAHAJ_LEDGER_WRITER set, main() records
// epochs in a loop and prints how many it has committed instead of running the tests.
#include "core/store/BucketCalendar.h"
#include "core/store/ContributionLedger.h"
#include "core/store/LedgerLimits.h"
#include "core/store/SqliteDatabase.h"
#include "tests/common/TestFiles.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>

#include <array>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>

using sahaj::store::BucketCalendar;
using sahaj::store::ContributionLedger;
using sahaj::store::ContributionTotals;
using sahaj::store::EpochContribution;
using sahaj::store::HistoryBucket;
using sahaj::store::LedgerLimits;
using sahaj::store::SqliteDatabase;
using sahaj::store::SqliteStatement;
using sahaj::store::TransferSample;
using sahaj::store::TransferTotals;
using sahaj::test::errorOf;

namespace {

constexpr qint64 kMinuteMs = 60 * 1000;
constexpr qint64 kHourMs = 60 * kMinuteMs;
constexpr qint64 kDayMs = 24 * kHourMs;
// 2024-03-10T00:00:00Z.
constexpr qint64 kMarch10Utc = 1710028800000;

const QTimeZone kIndia(5 * 3600 + 1800); // UTC+05:30: local hours are not UTC hours
const QTimeZone kBangladesh(6 * 3600);   // UTC+06:00

constexpr const char* kWriterPathVariable = "SAHAJ_LEDGER_WRITER";
constexpr const char* kWriterRunVariable = "SAHAJ_LEDGER_WRITER_RUN";
// The writer stops by itself after this many rows, should the test that runs it be gone.
constexpr qint64 kWriterMaxRows = 200000;

EpochContribution sampleEpoch(qint64 timeMs, qint64 epoch, qint64 samples) {
    EpochContribution contribution;
    contribution.timeMs = timeMs;
    contribution.runId = QStringLiteral("sahajbert-bn");
    contribution.epoch = epoch;
    contribution.samples = samples;
    contribution.tokens = samples * 128;
    contribution.computeSeconds = static_cast<double>(samples) * 0.5;
    contribution.batchShare = 0.125;
    contribution.bytesSent = 1000 * samples;
    contribution.bytesReceived = 2000 * samples;
    contribution.groupSize = 4;
    contribution.role = QStringLiteral("node");
    return contribution;
}

// What the writer process records as its `index`th epoch of run `runId`.
EpochContribution writerEpoch(const QString& runId, qint64 index) {
    EpochContribution contribution = sampleEpoch(kMarch10Utc + index * kMinuteMs, index, 1 + index % 97);
    contribution.runId = runId;
    contribution.batchShare = static_cast<double>(index % 101) / 100.0;
    return contribution;
}

TransferSample writerTransfer(qint64 index) {
    return TransferSample{kMarch10Utc + index * kMinuteMs, index * 3, index * 5};
}

int runWriter(const QString& path, const QString& runId) {
    try {
        ContributionLedger ledger(path);
        for (qint64 index = 0; index < kWriterMaxRows; ++index) {
            ledger.recordEpoch(writerEpoch(runId, index));
            ledger.recordTransfer(writerTransfer(index));
            // Printed only once both records have returned, that is, committed.
            std::printf("committed %lld\n", static_cast<long long>(index + 1));
            std::fflush(stdout);
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "ledger writer: %s\n", e.what());
        return 1;
    }
    return 0;
}

// The highest count in the complete "committed N" lines `writer` has to read, or `known` if higher.
qint64 readCommitted(QProcess& writer, qint64 known) {
    while (writer.canReadLine()) {
        const QByteArray line = writer.readLine().trimmed();
        if (line.startsWith("committed "))
            known = std::max(known, line.mid(10).toLongLong());
    }
    return known;
}

QByteArray readFile(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(path));
    return file.readAll();
}

void writeAt(const QString& path, qint64 offset, const QByteArray& bytes) {
    QFile file(path);
    if (!file.open(QIODevice::ReadWrite) || !file.seek(offset) || file.write(bytes) != bytes.size())
        qFatal("cannot write %s", qPrintable(path));
}

// Whether `error` names the file at `path`: as given, or as SQLite resolves it (symbolic links followed).
bool namesFile(const QString& error, const QString& path) {
    return error.contains(path) || error.contains(QFileInfo(path).canonicalFilePath());
}

QStringList filesIn(const QTemporaryDir& dir) {
    return QDir(dir.path()).entryList(QDir::Files, QDir::Name);
}

} // namespace

class TestContributionLedger : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void epochRoundTrip() {
        QTemporaryDir dir;
        ContributionLedger ledger(dir.filePath("ledger.sqlite"));
        EpochContribution first = sampleEpoch(kMarch10Utc, 41, 96);
        first.runId = QStringLiteral("বাংলা-run ✓"); // not ASCII: stored as UTF-8 text
        first.computeSeconds = 0.1 + 0.2;            // not exactly representable in decimal
        first.batchShare = 1.0 / 3.0;
        first.role = QStringLiteral("auxiliary");
        EpochContribution second = sampleEpoch(kMarch10Utc + kMinuteMs, 42, 0);
        second.samples = std::numeric_limits<qint64>::max();
        second.batchShare = 0.0;
        second.groupSize = 1;
        EpochContribution third = sampleEpoch(kMarch10Utc + 2 * kMinuteMs, 43, 10);
        third.batchShare = 1.0;
        QVERIFY(ledger.recordEpoch(first));
        QVERIFY(ledger.recordEpoch(third)); // out of order: lastEpochs() orders by time
        QVERIFY(ledger.recordEpoch(second));

        const std::vector<EpochContribution> all = ledger.lastEpochs(10);
        QCOMPARE(all.size(), 3u);
        QVERIFY(all[0] == first);
        QVERIFY(all[1] == second);
        QVERIFY(all[2] == third);
        const std::vector<EpochContribution> latest = ledger.lastEpochs(1);
        QCOMPARE(latest.size(), 1u);
        QVERIFY(latest[0] == third);
        QVERIFY(ledger.lastEpochs(0).empty());
    }

    void anEpochIsRecordedOnce() {
        QTemporaryDir dir;
        ContributionLedger ledger(dir.filePath("ledger.sqlite"));
        QVERIFY(ledger.recordEpoch(sampleEpoch(kMarch10Utc, 7, 10)));
        // The same run and epoch again, even with other figures: refused, the first row stays.
        QVERIFY(!ledger.recordEpoch(sampleEpoch(kMarch10Utc + kHourMs, 7, 99)));
        EpochContribution otherRun = sampleEpoch(kMarch10Utc, 7, 20);
        otherRun.runId = QStringLiteral("another-run");
        QVERIFY(ledger.recordEpoch(otherRun));
        QCOMPARE(ledger.totals().epochsJoined, 2);
        QCOMPARE(ledger.totals().samples, 30);
    }

    void transferRoundTrip() {
        QTemporaryDir dir;
        ContributionLedger ledger(dir.filePath("ledger.sqlite"));
        const std::array<TransferSample, 4> samples = {
            TransferSample{kMarch10Utc - 1, 1, 2},
            TransferSample{kMarch10Utc, 0, 0},
            TransferSample{kMarch10Utc + kMinuteMs, std::numeric_limits<qint64>::max(), 5},
            TransferSample{kMarch10Utc + 2 * kMinuteMs, 7, 8},
        };
        for (const TransferSample& sample : samples)
            ledger.recordTransfer(sample);
        // [from, to): the sample at `from` is in, the one at `to` is out.
        const std::vector<TransferSample> read =
            ledger.transferSamples(kMarch10Utc, kMarch10Utc + 2 * kMinuteMs);
        QCOMPARE(read.size(), 2u);
        QVERIFY(read[0] == samples[1]);
        QVERIFY(read[1] == samples[2]);
        QCOMPARE(ledger.transferSamples(0, kMarch10Utc + kDayMs).size(), 4u);
        QVERIFY(ledger.transferSamples(kMarch10Utc + kDayMs, kMarch10Utc + 2 * kDayMs).empty());
    }

    void totalsOverallAndSince() {
        QTemporaryDir dir;
        ContributionLedger ledger(dir.filePath("ledger.sqlite"));
        QVERIFY(ledger.totals() == ContributionTotals{});
        ledger.recordEpoch(sampleEpoch(kMarch10Utc, 1, 100));              // 50 s of compute
        ledger.recordEpoch(sampleEpoch(kMarch10Utc + kHourMs, 2, 200));    // 100 s
        ledger.recordEpoch(sampleEpoch(kMarch10Utc + 2 * kHourMs, 3, 20)); // 10 s

        const ContributionTotals all = ledger.totals();
        QCOMPARE(all.epochsJoined, 3);
        QCOMPARE(all.samples, 320);
        QCOMPARE(all.tokens, 320 * 128);
        QCOMPARE(all.computeHours, 160.0 / 3600.0);
        QCOMPARE(all.bytesSent, 320 * 1000);
        QCOMPARE(all.bytesReceived, 320 * 2000);

        // `since` is inclusive.
        const ContributionTotals recent = ledger.totalsSince(kMarch10Utc + kHourMs);
        QCOMPARE(recent.epochsJoined, 2);
        QCOMPARE(recent.samples, 220);
        QCOMPARE(recent.computeHours, 110.0 / 3600.0);
        QCOMPARE(ledger.totalsSince(kMarch10Utc + kHourMs + 1).epochsJoined, 1);
        QVERIFY(ledger.totalsSince(kMarch10Utc + 3 * kHourMs) == ContributionTotals{});
    }

    void calendarEdges() {
        // 2024-03-10T00:00Z is 05:30 in India and 06:00 in Bangladesh, on the same date.
        QCOMPARE(BucketCalendar::startOfDay(kMarch10Utc, QTimeZone::utc()), kMarch10Utc);
        QCOMPARE(BucketCalendar::startOfDay(kMarch10Utc - 1, QTimeZone::utc()), kMarch10Utc - kDayMs);
        QCOMPARE(BucketCalendar::startOfDay(kMarch10Utc, kIndia), 1710009000000);      // 2024-03-09T18:30Z
        QCOMPARE(BucketCalendar::startOfDay(kMarch10Utc, kBangladesh), 1710007200000); // 2024-03-09T18:00Z
        QCOMPARE(BucketCalendar::startOfDay(1710007200000 - 1, kBangladesh), 1710007200000 - kDayMs);
        QCOMPARE(BucketCalendar::startOfHour(kMarch10Utc + 10 * kMinuteMs, QTimeZone::utc()), kMarch10Utc);
        QCOMPARE(BucketCalendar::startOfHour(kMarch10Utc + 10 * kMinuteMs, kIndia),
                 kMarch10Utc - 30 * kMinuteMs);
        QCOMPARE(BucketCalendar::startOfHour(kMarch10Utc + 30 * kMinuteMs, kIndia),
                 kMarch10Utc + 30 * kMinuteMs);
    }

    void hourBucketsInAHalfHourZone() {
        QTemporaryDir dir;
        ContributionLedger ledger(dir.filePath("ledger.sqlite"));
        // Local hours in India begin at hh:30 UTC.
        const qint64 firstHour = kMarch10Utc - 30 * kMinuteMs;              // 05:00 local
        ledger.recordEpoch(sampleEpoch(firstHour - 1, 1, 1000));            // the hour before: not asked for
        ledger.recordEpoch(sampleEpoch(firstHour, 2, 1));                   // first instant of the 1st hour
        ledger.recordEpoch(sampleEpoch(firstHour + kHourMs - 1, 3, 2));     // last instant of the 1st hour
        ledger.recordEpoch(sampleEpoch(firstHour + kHourMs, 4, 4));         // first instant of the 2nd hour
        ledger.recordEpoch(sampleEpoch(firstHour + 3 * kHourMs + 5, 5, 8)); // the 4th hour; the 3rd is empty
        ledger.recordEpoch(sampleEpoch(firstHour + 4 * kHourMs, 6, 1000));  // the hour after: not asked for

        // 05:40 to 08:30 local: the four local hours that overlap it, each whole.
        const std::vector<HistoryBucket> hours = ledger.history(
            kMarch10Utc + 10 * kMinuteMs, kMarch10Utc + 3 * kHourMs, HistoryBucket::Size::Hour, kIndia);
        QCOMPARE(hours.size(), 4u);
        const std::array<qint64, 4> epochs = {2, 1, 0, 1};
        const std::array<qint64, 4> samples = {3, 4, 0, 8};
        for (std::size_t i = 0; i < hours.size(); ++i) {
            QCOMPARE(hours[i].startMs, firstHour + static_cast<qint64>(i) * kHourMs);
            QCOMPARE(hours[i].endMs, firstHour + static_cast<qint64>(i + 1) * kHourMs);
            QCOMPARE(hours[i].epochs, epochs[i]);
            QCOMPARE(hours[i].samples, samples[i]);
            QCOMPARE(hours[i].tokens, samples[i] * 128);
            QCOMPARE(hours[i].computeHours, static_cast<double>(samples[i]) * 0.5 / 3600.0);
        }

        // The same rows by UTC hours: other edges, other sums.
        const std::vector<HistoryBucket> utcHours =
            ledger.history(kMarch10Utc + 10 * kMinuteMs, kMarch10Utc + 3 * kHourMs, HistoryBucket::Size::Hour,
                           QTimeZone::utc());
        QCOMPARE(utcHours.size(), 3u);
        QCOMPARE(utcHours[0].startMs, kMarch10Utc);
        QCOMPARE(utcHours[0].samples, 2 + 4);
        QCOMPARE(utcHours[1].samples, 0);
        QCOMPARE(utcHours[2].samples, 8);
        QCOMPARE(utcHours[2].endMs, kMarch10Utc + 3 * kHourMs);
    }

    void dayBucketsFollowTheOffset() {
        QTemporaryDir dir;
        ContributionLedger ledger(dir.filePath("ledger.sqlite"));
        const qint64 midnight = kMarch10Utc - 6 * kHourMs;                 // 2024-03-10T00:00 in Bangladesh
        ledger.recordEpoch(sampleEpoch(midnight - 1, 1, 1));               // 03-09 local, 03-09 UTC
        ledger.recordEpoch(sampleEpoch(midnight, 2, 2));                   // 03-10 local, 03-09 UTC
        ledger.recordEpoch(sampleEpoch(kMarch10Utc + 12 * kHourMs, 3, 4)); // 03-10 both
        ledger.recordEpoch(sampleEpoch(kMarch10Utc + 2 * kDayMs + kHourMs, 4, 8)); // 03-12 both

        const std::vector<HistoryBucket> local =
            ledger.history(midnight, midnight + 3 * kDayMs, HistoryBucket::Size::Day, kBangladesh);
        QCOMPARE(local.size(), 3u);
        QCOMPARE(local[0].startMs, midnight);
        QCOMPARE(local[2].endMs, midnight + 3 * kDayMs);
        QCOMPARE(local[0].samples, 2 + 4);
        QCOMPARE(local[0].epochs, 2);
        QCOMPARE(local[1].samples, 0); // an empty day is there, with zeros
        QCOMPARE(local[1].epochs, 0);
        QCOMPARE(local[1].computeHours, 0.0);
        QCOMPARE(local[2].samples, 8);

        const std::vector<HistoryBucket> utc =
            ledger.history(midnight, midnight + 3 * kDayMs, HistoryBucket::Size::Day, QTimeZone::utc());
        QCOMPARE(utc.size(), 4u); // 03-09 18:00Z to 03-12 18:00Z touches four UTC days
        QCOMPARE(utc[0].startMs, kMarch10Utc - kDayMs);
        QCOMPARE(utc[0].samples, 1 + 2);
        QCOMPARE(utc[1].samples, 4);
        QCOMPARE(utc[2].samples, 0);
        QCOMPARE(utc[3].samples, 8);
    }

    void dayBucketsAcrossDaylightSavingChanges() {
        const QTimeZone berlin("Europe/Berlin");
        if (!berlin.isValid())
            QSKIP("the Europe/Berlin time zone is not installed (tzdata)");
        QTemporaryDir dir;
        ContributionLedger ledger(dir.filePath("ledger.sqlite"));
        const qint64 march31 = 1711839600000;   // 2024-03-31T00:00+01:00, a 23-hour day
        const qint64 april1 = 1711922400000;    // 2024-04-01T00:00+02:00
        const qint64 october27 = 1729980000000; // 2024-10-27T00:00+02:00, a 25-hour day
        const qint64 october28 = 1730070000000; // 2024-10-28T00:00+01:00
        ledger.recordEpoch(sampleEpoch(april1 - 1, 1, 1));
        ledger.recordEpoch(sampleEpoch(october28 - 1, 2, 2));

        const std::vector<HistoryBucket> spring =
            ledger.history(march31, march31 + 1, HistoryBucket::Size::Day, berlin);
        QCOMPARE(spring.size(), 1u);
        QCOMPARE(spring[0].startMs, march31);
        QCOMPARE(spring[0].endMs, april1);
        QCOMPARE(spring[0].endMs - spring[0].startMs, 23 * kHourMs);
        QCOMPARE(spring[0].samples, 1);
        QCOMPARE(ledger.history(march31, april1, HistoryBucket::Size::Hour, berlin).size(), 23u);

        const std::vector<HistoryBucket> autumn =
            ledger.history(october27, october28, HistoryBucket::Size::Day, berlin);
        QCOMPARE(autumn.size(), 1u);
        QCOMPARE(autumn[0].endMs - autumn[0].startMs, 25 * kHourMs);
        QCOMPARE(autumn[0].samples, 2);
        const std::vector<HistoryBucket> autumnHours =
            ledger.history(october27, october28, HistoryBucket::Size::Hour, berlin);
        QCOMPARE(autumnHours.size(), 25u);
        for (const HistoryBucket& hour : autumnHours)
            QCOMPARE(hour.endMs - hour.startMs, kHourMs);
    }

    void historyRangesChecked() {
        QTemporaryDir dir;
        ContributionLedger ledger(dir.filePath("ledger.sqlite"));
        QVERIFY(ledger.history(kMarch10Utc, kMarch10Utc, HistoryBucket::Size::Day, kIndia).empty());
        QVERIFY(errorOf([&] {
                    ledger.history(kMarch10Utc, kMarch10Utc - 1, HistoryBucket::Size::Day, kIndia);
                }).contains("after it ends"));
        QVERIFY(errorOf([&] {
                    ledger.history(kMarch10Utc, kMarch10Utc + 1, HistoryBucket::Size::Day,
                                   QTimeZone("No/Such_Zone"));
                }).contains("time zone is not valid"));
        QVERIFY(errorOf([&] {
                    ledger.history(-1, kMarch10Utc, HistoryBucket::Size::Day, kIndia);
                }).contains("outside"));
        const qint64 tooManyHours = (BucketCalendar::kMaxBuckets + 1) * kHourMs;
        QVERIFY(errorOf([&] {
                    ledger.history(kMarch10Utc, kMarch10Utc + tooManyHours, HistoryBucket::Size::Hour,
                                   kIndia);
                }).contains("more than"));
        // The same range in days is fine: from 05:30 local, 100001 hours end 4166 days and 17 hours later.
        QCOMPARE(
            ledger.history(kMarch10Utc, kMarch10Utc + tooManyHours, HistoryBucket::Size::Day, kIndia).size(),
            4167u);
    }

    void todaysTransfer() {
        QTemporaryDir dir;
        ContributionLedger ledger(dir.filePath("ledger.sqlite"));
        const qint64 now = kMarch10Utc + kHourMs; // 06:30 in India
        const qint64 today = BucketCalendar::startOfDay(now, kIndia);
        QCOMPARE(today, kMarch10Utc - 5 * kHourMs - 30 * kMinuteMs);
        QVERIFY(ledger.transferSince(today) == TransferTotals{});
        ledger.recordTransfer({today - 1, 1000, 2000}); // yesterday's last millisecond
        ledger.recordTransfer({today, 10, 20});
        ledger.recordTransfer({now, 1, 2});
        QVERIFY(ledger.transferSince(today) == (TransferTotals{11, 22}));
        QVERIFY(ledger.transferSince(0) == (TransferTotals{1011, 2022}));
    }

    void pruningDropsOldTransferSamplesOnly() {
        QTemporaryDir dir;
        ContributionLedger ledger(dir.filePath("ledger.sqlite"));
        const qint64 now = kMarch10Utc;
        const qint64 cutoff = now - 7 * kDayMs;
        ledger.recordTransfer({cutoff - kDayMs, 1, 1});
        ledger.recordTransfer({cutoff - 1, 2, 2});
        ledger.recordTransfer({cutoff, 4, 4}); // exactly seven days old: kept
        ledger.recordTransfer({now, 8, 8});
        ledger.recordEpoch(sampleEpoch(cutoff - kDayMs, 1, 5)); // epochs are history: never pruned

        QCOMPARE(ledger.pruneTransferSamples(now, 7), 2);
        QVERIFY(ledger.transferSince(0) == (TransferTotals{12, 12}));
        QCOMPARE(ledger.transferSamples(0, now + 1).front().timeMs, cutoff);
        QCOMPARE(ledger.totals().epochsJoined, 1);
        QCOMPARE(ledger.pruneTransferSamples(now, 7), 0);
        QCOMPARE(ledger.pruneTransferSamples(now, 0), 1); // keeps only what is not older than now
        QVERIFY(ledger.transferSince(0) == (TransferTotals{8, 8}));
    }

    void invalidEpochRefused_data() {
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("expected");
        auto row = [](const char* name, const char* field, const char* expected) {
            QTest::newRow(name) << QString::fromLatin1(field) << QString::fromLatin1(expected);
        };
        row("negative time", "time", "time -1 ms is outside");
        row("time after 9999", "time-late", "is outside");
        row("empty run id", "run", "run id is empty");
        row("long run id", "run-long", "run id has 129 characters");
        row("negative epoch", "epoch", "epoch is negative");
        row("negative samples", "samples", "samples is negative");
        row("negative tokens", "tokens", "tokens is negative");
        row("negative compute", "compute", "compute seconds");
        row("NaN compute", "compute-nan", "compute seconds");
        row("infinite compute", "compute-inf", "compute seconds");
        row("share above 1", "share-high", "share of the batch (1.5) is outside 0..1");
        row("negative share", "share-low", "share of the batch");
        row("NaN share", "share-nan", "share of the batch");
        row("negative bytes sent", "sent", "bytes sent is negative");
        row("negative bytes received", "received", "bytes received is negative");
        row("group of none", "group", "group size 0 is below 1");
        row("empty role", "role", "role is empty");
        row("long role", "role-long", "role has 33 characters");
    }

    void invalidEpochRefused() {
        QFETCH(QString, field);
        QFETCH(QString, expected);
        EpochContribution contribution = sampleEpoch(kMarch10Utc, 1, 10);
        const double nan = std::numeric_limits<double>::quiet_NaN();
        if (field == "time")
            contribution.timeMs = -1;
        else if (field == "time-late")
            contribution.timeMs = LedgerLimits::kMaxTimeMs + 1;
        else if (field == "run")
            contribution.runId.clear();
        else if (field == "run-long")
            contribution.runId = QString(129, QLatin1Char('r'));
        else if (field == "epoch")
            contribution.epoch = -1;
        else if (field == "samples")
            contribution.samples = -1;
        else if (field == "tokens")
            contribution.tokens = -5;
        else if (field == "compute")
            contribution.computeSeconds = -0.5;
        else if (field == "compute-nan")
            contribution.computeSeconds = nan;
        else if (field == "compute-inf")
            contribution.computeSeconds = std::numeric_limits<double>::infinity();
        else if (field == "share-high")
            contribution.batchShare = 1.5;
        else if (field == "share-low")
            contribution.batchShare = -0.01;
        else if (field == "share-nan")
            contribution.batchShare = nan;
        else if (field == "sent")
            contribution.bytesSent = -1;
        else if (field == "received")
            contribution.bytesReceived = -1;
        else if (field == "group")
            contribution.groupSize = 0;
        else if (field == "role")
            contribution.role.clear();
        else if (field == "role-long")
            contribution.role = QString(33, QLatin1Char('x'));
        else
            QFAIL("unknown field");

        QTemporaryDir dir;
        ContributionLedger ledger(dir.filePath("ledger.sqlite"));
        bool refused = false;
        try {
            ledger.recordEpoch(contribution);
        } catch (const std::invalid_argument& e) {
            refused = true;
            QVERIFY2(QString::fromUtf8(e.what()).contains(expected), e.what());
        }
        QVERIFY(refused);
        QVERIFY(ledger.lastEpochs(10).empty());
        QCOMPARE(ledger.totals().epochsJoined, 0);
    }

    void invalidTransferAndArgumentsRefused() {
        QTemporaryDir dir;
        ContributionLedger ledger(dir.filePath("ledger.sqlite"));
        auto refusedWith = [](auto&& action, const char* expected) {
            try {
                action();
            } catch (const std::invalid_argument& e) {
                return QString::fromUtf8(e.what()).contains(QLatin1String(expected));
            }
            return false;
        };
        QVERIFY(refusedWith([&] { ledger.recordTransfer({kMarch10Utc, -1, 0}); }, "up bytes is negative"));
        QVERIFY(refusedWith([&] { ledger.recordTransfer({kMarch10Utc, 0, -1}); }, "down bytes is negative"));
        QVERIFY(refusedWith([&] { ledger.recordTransfer({-1, 0, 0}); }, "time -1 ms is outside"));
        QVERIFY(ledger.transferSamples(-kDayMs, kMarch10Utc + kDayMs).empty());

        ledger.recordTransfer({kMarch10Utc - 30 * kDayMs, 1, 1});
        QVERIFY(refusedWith([&] { ledger.pruneTransferSamples(kMarch10Utc, -1); }, "cannot keep -1 days"));
        QVERIFY(refusedWith([&] { ledger.pruneTransferSamples(-1, 7); }, "outside"));
        QCOMPARE(ledger.transferSamples(0, kMarch10Utc).size(), 1u); // nothing pruned
        QVERIFY(refusedWith([&] { ledger.lastEpochs(-1); }, "cannot list -1 epochs"));
    }

    void foreignFileRefusedAndLeftAsItIs_data() {
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QString>("expected");
        QByteArray noise(8192, Qt::Uninitialized);
        QRandomGenerator generator(20240310);
        for (char& byte : noise)
            byte = static_cast<char>(generator.bounded(256));
        QTest::newRow("text") << QByteArray("samples,tokens\n1,2\n") << "not an SQLite database";
        QTest::newRow("shorter than the header") << QByteArray("SQLite") << "not an SQLite database";
        QTest::newRow("random bytes") << noise << "not an SQLite database";
        // The header and then garbage: SQLite itself finds the rest unreadable.
        QTest::newRow("header then noise") << QByteArray("SQLite format 3", 16) + noise << "left as it is";
    }

    void foreignFileRefusedAndLeftAsItIs() {
        QFETCH(QByteArray, content);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        const QString path = sahaj::test::writeFile(dir, "ledger.sqlite", content);
        const QString error = errorOf([&] { ContributionLedger ledger(path); });
        QVERIFY2(namesFile(error, path) && error.contains(expected), qPrintable(error));
        QCOMPARE(readFile(path), content);
        QCOMPARE(filesIn(dir), QStringList{"ledger.sqlite"}); // no log or index files left behind
    }

    void corruptDatabaseRefusedAndLeftAsItIs() {
        QTemporaryDir dir;
        const QString path = dir.filePath("ledger.sqlite");
        {
            ContributionLedger ledger(path);
            for (int i = 0; i < 50; ++i)
                ledger.recordEpoch(sampleEpoch(kMarch10Utc + i * kMinuteMs, i, 10));
        } // the last connection to close folds the log into the file
        QCOMPARE(filesIn(dir), QStringList{"ledger.sqlite"});
        // Page 2 (of 4096 bytes) is the epoch table's root: overwrite all of it, header included.
        writeAt(path, 4096, QByteArray(4096, '\xA5'));
        const QByteArray corrupted = readFile(path);
        const QString error = errorOf([&] { ContributionLedger ledger(path); });
        QVERIFY2(namesFile(error, path) && error.contains("corrupt") && error.contains("left as it is"),
                 qPrintable(error));
        QCOMPARE(readFile(path), corrupted);
    }

    void reopeningKeepsDataAndSchema() {
        QTemporaryDir dir;
        const QString path = dir.filePath("ledger.sqlite");
        {
            ContributionLedger ledger(path);
            QCOMPARE(ledger.database().userVersion(), ContributionLedger::kSchemaVersion);
            QCOMPARE(ledger.database().journalMode(), QStringLiteral("wal"));
            ledger.recordEpoch(sampleEpoch(kMarch10Utc, 1, 10));
            ledger.recordTransfer({kMarch10Utc, 3, 4});
            // A second connection, as the desktop app beside a node, reads what the first committed.
            const ContributionLedger reader(path);
            QCOMPARE(reader.totals().epochsJoined, 1);
            ledger.recordEpoch(sampleEpoch(kMarch10Utc + kMinuteMs, 2, 20));
            QCOMPARE(reader.totals().epochsJoined, 2);
        }
        const QByteArray closed = readFile(path);
        QVERIFY(closed.startsWith(QByteArray("SQLite format 3", 16)));
        QCOMPARE(static_cast<int>(closed.at(18)), 2); // file format 2: WAL, kept across connections
        ContributionLedger ledger(path);
        QCOMPARE(ledger.database().userVersion(), ContributionLedger::kSchemaVersion);
        QCOMPARE(ledger.totals().samples, 30);
        QVERIFY(ledger.transferSince(0) == (TransferTotals{3, 4}));
        QVERIFY(ledger.lastEpochs(1).front() == sampleEpoch(kMarch10Utc + kMinuteMs, 2, 20));
        QVERIFY(ledger.database().integrityProblems().isEmpty());
    }

    void newerSchemaRefusedAndLeftAsItIs() {
        QTemporaryDir dir;
        const QString path = dir.filePath("ledger.sqlite");
        {
            const SqliteDatabase database = SqliteDatabase::open(path);
            database.exec("CREATE TABLE future (x INTEGER); PRAGMA user_version = 2");
        }
        const QByteArray before = readFile(path);
        const QString error = errorOf([&] { ContributionLedger ledger(path); });
        QVERIFY2(namesFile(error, path) && error.contains("version 2") && error.contains("refusing"),
                 qPrintable(error));
        QCOMPARE(readFile(path), before);
    }

    void migrationRunsOnlyMissingStepsAtomically() {
        QTemporaryDir dir;
        const QString path = dir.filePath("scratch.sqlite");
        const SqliteDatabase database = SqliteDatabase::open(path);
        QCOMPARE(database.userVersion(), 0);
        const std::array<const char*, 3> steps = {
            "CREATE TABLE a (x INTEGER)",
            "CREATE TABLE b (x INTEGER); INSERT INTO a VALUES (1)",
            "CREATE TABLE c (x INTEGER); CREATE TABLE broken (",
        };
        database.migrate(std::span(steps).first(1));
        QCOMPARE(database.userVersion(), 1);
        // Step 1 again would fail (table a exists): only step 2 runs.
        database.migrate(std::span(steps).first(2));
        QCOMPARE(database.userVersion(), 2);
        database.migrate(std::span(steps).first(2)); // up to date: nothing to do
        QCOMPARE(database.userVersion(), 2);

        // A failing step leaves the previous version whole: no table c, version 2.
        const QString error = errorOf([&] { database.migrate(steps); });
        QVERIFY2(namesFile(error, path) && error.contains("CREATE TABLE c"), qPrintable(error));
        QCOMPARE(database.userVersion(), 2);
        SqliteStatement tables = database.prepare("SELECT group_concat(name, ',') FROM "
                                                  "(SELECT name FROM sqlite_schema ORDER BY name)");
        QVERIFY(tables.step());
        QCOMPARE(tables.columnText(0), QStringLiteral("a,b"));

        QVERIFY(errorOf([&] { database.migrate(std::span(steps).first(1)); }).contains("version 2"));
    }

    void sqliteErrorsNameTheFile() {
        QTemporaryDir dir;
        const QString missingFolder = dir.filePath("no/such/folder/ledger.sqlite");
        const QString error = errorOf([&] { ContributionLedger ledger(missingFolder); });
        QVERIFY2(error.contains(missingFolder) && error.contains("cannot open"), qPrintable(error));

        const SqliteDatabase database = SqliteDatabase::open(dir.filePath("scratch.sqlite"));
        const QString syntax = errorOf([&] { database.prepare("SELEKT 1"); });
        QVERIFY2(namesFile(syntax, dir.filePath("scratch.sqlite")) && syntax.contains("SELEKT") &&
                     syntax.contains("syntax error"),
                 qPrintable(syntax));
    }

    void committedRowsSurviveAKilledWriter() {
        QTemporaryDir dir;
        const QString path = dir.filePath("ledger.sqlite");
        // Killed early, then past the log's first automatic checkpoints (about every 1000 pages).
        const std::array<qint64, 3> killAfter = {50, 700, 2500};
        for (std::size_t round = 0; round < killAfter.size(); ++round) {
            const QString runId = QStringLiteral("crash-%1").arg(round);
            QProcess writer;
            QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
            environment.insert(kWriterPathVariable, path);
            environment.insert(kWriterRunVariable, runId);
            writer.setProcessEnvironment(environment);
            writer.setProcessChannelMode(QProcess::ForwardedErrorChannel);
            writer.start(QCoreApplication::applicationFilePath(), {});
            QVERIFY2(writer.waitForStarted(30000), qPrintable(writer.errorString()));

            qint64 committed = 0;
            const QDeadlineTimer deadline(120000);
            while (committed < killAfter[round] && writer.state() == QProcess::Running &&
                   !deadline.hasExpired()) {
                writer.waitForReadyRead(static_cast<int>(std::min<qint64>(deadline.remainingTime(), 1000)));
                committed = readCommitted(writer, committed);
            }
            QVERIFY2(committed >= killAfter[round],
                     qPrintable(QStringLiteral("the writer reported %1 rows").arg(committed)));
            writer.kill(); // SIGKILL: no destructor, no checkpoint, no close
            QVERIFY(writer.waitForFinished(30000));
            QCOMPARE(writer.exitStatus(), QProcess::CrashExit);
            committed = readCommitted(writer, committed); // lines it printed before it died
            // The writer died with its log uncheckpointed: opening must recover from it.
            QVERIFY(QFileInfo(path + QStringLiteral("-wal")).size() > 0);

            const ContributionLedger ledger(path);
            QCOMPARE(ledger.database().integrityProblems(), QStringList{});
            // Every row reported committed is there; at most one more, committed but not yet reported.
            SqliteStatement count = ledger.database().prepare(
                "SELECT count(*), coalesce(max(epoch), -1) FROM epoch_contribution WHERE run_id = ?");
            count.bindText(1, runId);
            QVERIFY(count.step());
            const qint64 rows = count.columnInt64(0);
            QVERIFY2(rows == committed || rows == committed + 1,
                     qPrintable(QStringLiteral("%1 rows, %2 reported").arg(rows).arg(committed)));
            QCOMPARE(count.columnInt64(1), rows - 1); // epochs 0..rows-1, none missing

            SqliteStatement read =
                ledger.database().prepare("SELECT time_ms, epoch, samples, tokens, compute_seconds, "
                                          "batch_share FROM epoch_contribution "
                                          "WHERE run_id = ? ORDER BY epoch");
            read.bindText(1, runId);
            for (qint64 index = 0; index < committed; ++index) {
                QVERIFY(read.step());
                const EpochContribution expected = writerEpoch(runId, index);
                QCOMPARE(read.columnInt64(0), expected.timeMs);
                QCOMPARE(read.columnInt64(1), expected.epoch);
                QCOMPARE(read.columnInt64(2), expected.samples);
                QCOMPARE(read.columnInt64(3), expected.tokens);
                QCOMPARE(read.columnDouble(4), expected.computeSeconds);
                QCOMPARE(read.columnDouble(5), expected.batchShare);
            }
        }
        // The transfer rows of all rounds: each round committed its own before reporting.
        const ContributionLedger ledger(path);
        QVERIFY(ledger.totals().epochsJoined >= 50 + 700 + 2500);
        QVERIFY(ledger.transferSamples(0, LedgerLimits::kMaxTimeMs).size() >= 50u + 700u + 2500u);
    }
};

int main(int argc, char** argv) {
    const QByteArray writerPath = qgetenv(kWriterPathVariable);
    if (!writerPath.isEmpty())
        return runWriter(QString::fromLocal8Bit(writerPath),
                         QString::fromLocal8Bit(qgetenv(kWriterRunVariable)));
    QCoreApplication application(argc, argv);
    TestContributionLedger test;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&test, argc, argv);
}

#include "tst_contribution_ledger.moc"
