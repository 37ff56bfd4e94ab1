#include "core/fetch/ShardDownloader.h"

#include "core/fetch/HttpFetch.h"
#include "core/run/ShardVerifier.h"
#include "core/security/Sha256.h"

#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>

#include <cerrno>
#include <cstring>

namespace sahaj::fetch {

namespace {

using Outcome = FetchResult::Outcome;

// The partial file, open for appending, and the hash of every byte in it.
class PartialFile {
public:
    explicit PartialFile(const QString& path) : file_(path) {}

    // Opens (creating it) and hashes what an earlier try left. False with the reason when it cannot.
    bool open(QString* error) {
        if (!file_.open(QIODevice::ReadWrite)) {
            *error = file_.errorString();
            return false;
        }
        QByteArray buffer(1 << 20, Qt::Uninitialized);
        for (;;) {
            const qint64 read = file_.read(buffer.data(), buffer.size());
            if (read < 0) {
                *error = file_.errorString();
                return false;
            }
            if (read == 0)
                break;
            hash_.add(QByteArrayView(buffer.constData(), read));
            size_ += read;
        }
        return true;
    }

    bool append(const char* data, std::size_t size) {
        if (file_.write(data, qint64(size)) != qint64(size)) {
            writeError_ = file_.errorString();
            diskFull_ = file_.error() == QFileDevice::ResourceError || errno == ENOSPC;
            return false;
        }
        hash_.add(QByteArrayView(data, qsizetype(size)));
        size_ += std::int64_t(size);
        return true;
    }

    bool flush() { return file_.flush(); }
    std::int64_t size() const { return size_; }
    QString sha256() const { return hash_.hex(); }
    QString writeError() const { return writeError_; }
    bool diskFull() const { return diskFull_; }
    void close() { file_.close(); }

private:
    QFile file_;
    security::Sha256 hash_;
    std::int64_t size_ = 0;
    QString writeError_;
    bool diskFull_ = false;
};

QString describe(const FetchResult& result) {
    QString text = FetchResult::outcomeName(result.outcome);
    if (!result.message.isEmpty())
        text += QStringLiteral(": ") + result.message;
    return text;
}

} // namespace

ShardDownloader::ShardDownloader(ShardCache& cache, TransferSettings settings)
    : cache_(cache), settings_(std::move(settings)) {}

DownloadReport ShardDownloader::fetch(const run::DataShard& shard,
                                      const std::vector<std::shared_ptr<ShardMirror>>& mirrors,
                                      const QSet<QString>& keep, const ProgressCallback& progress,
                                      const std::atomic<bool>* cancel) {
    QElapsedTimer clock;
    clock.start();
    DownloadReport report;
    QString problem;
    if (const std::optional<QString> cached = cache_.find(shard, &problem)) {
        report.path = *cached;
        report.place = QStringLiteral("cache");
        return report;
    }
    if (!problem.isEmpty())
        report.failures.push_back({QStringLiteral("cache"), problem});

    const auto checkCancel = [&] {
        if (cancel && cancel->load())
            throw std::runtime_error("the download of " + shard.name().toStdString() + " was cancelled");
    };
    bool diskFull = false;
    bool delivered = false;
    // Whether to stop trying places: the shard is here, or the disk failed (another place would fail
    // the same way).
    const auto finished = [&](Attempt attempt) {
        report.seconds = double(clock.elapsed()) / 1000.0;
        delivered = attempt == Attempt::Delivered;
        diskFull = attempt == Attempt::DiskFull;
        return attempt != Attempt::NextPlace;
    };
    bool done = false;
    for (const QString& place : shard.urls) {
        checkCancel();
        if (const std::optional<QString> local = run::ShardVerifier::localFile(place)) {
            try {
                run::ShardVerifier::verifyFile(shard, *local);
            } catch (const std::runtime_error& e) {
                report.failures.push_back({place, QString::fromUtf8(e.what())});
                continue;
            }
            report.path = *local;
            report.place = place;
            report.seconds = double(clock.elapsed()) / 1000.0;
            return report;
        }
        const Transfer http = [&](std::int64_t offset, std::int64_t limit, const HttpFetch::Sink& sink,
                                  const HttpFetch::Progress& onProgress) {
            return HttpFetch::get({place, offset, limit}, settings_, sink, onProgress, cancel);
        };
        if ((done = finished(download(shard, place, http, keep, progress, report))))
            break;
    }
    for (std::size_t i = 0; !done && i < mirrors.size(); ++i) {
        checkCancel();
        ShardMirror& mirror = *mirrors[i];
        const Transfer fromMirror = [&](std::int64_t offset, std::int64_t, const HttpFetch::Sink& sink,
                                        const HttpFetch::Progress& onProgress) {
            return mirror.fetch(shard, offset, settings_, sink, onProgress, cancel);
        };
        done = finished(download(shard, mirror.name(), fromMirror, keep, progress, report));
    }
    if (delivered)
        return report;

    QString message = QStringLiteral("no place delivered the shard %1 (%2 bytes, SHA-256 %3):")
                          .arg(shard.name())
                          .arg(shard.bytes)
                          .arg(shard.sha256);
    for (const PlaceFailure& failure : report.failures)
        message += QStringLiteral("\n  %1: %2").arg(failure.url, failure.reason);
    throw DownloadFailed(message, report.failures, diskFull);
}

ShardDownloader::Attempt ShardDownloader::download(const run::DataShard& shard, const QString& place,
                                                   const Transfer& transfer, const QSet<QString>& keep,
                                                   const ProgressCallback& progress, DownloadReport& report) {
    PartialFile part(cache_.partialPath(shard));
    QString error;
    if (!part.open(&error))
        throw DownloadFailed(QStringLiteral("the partial file of %1 cannot be opened: %2")
                                 .arg(cache_.partialPath(shard), error),
                             report.failures, false);
    const std::int64_t resumed = part.size();
    QSet<QString> kept = keep;
    kept.insert(shard.sha256);
    try {
        cache_.reserve(shard.bytes - resumed, kept);
    } catch (const std::runtime_error& e) {
        throw DownloadFailed(QString::fromUtf8(e.what()), report.failures, true);
    }

    DownloadProgress state{shard.name(), place, resumed, shard.bytes, 0, false};
    QElapsedTimer transferClock;
    transferClock.start();
    const auto onProgress = [&](std::int64_t received) {
        state.done = resumed + received;
        const double seconds = double(transferClock.elapsed()) / 1000.0;
        state.bytesPerSecond = seconds > 0 ? double(received) / seconds : 0;
        if (progress)
            progress(state);
    };
    FetchResult result;
    if (resumed < shard.bytes)
        result = transfer(
            resumed, shard.bytes - resumed,
            [&](const char* data, std::size_t size) { return part.append(data, size); }, onProgress);
    else
        result.outcome = Outcome::Complete; // everything was already here
    report.bytesReceived += result.received;
    if (!part.flush() && result.ok()) {
        result.outcome = Outcome::SinkFailed;
        result.message = part.writeError();
    }
    part.close();
    if (result.outcome == Outcome::Cancelled)
        throw std::runtime_error("the download of " + shard.name().toStdString() + " was cancelled");
    if (result.outcome == Outcome::SinkFailed) {
        report.failures.push_back(
            {place, QStringLiteral("the shard could not be written to %1: %2")
                        .arg(cache_.partialPath(shard),
                             part.writeError().isEmpty() ? result.message : part.writeError())});
        return part.diskFull() ? Attempt::DiskFull : Attempt::NotStored;
    }
    if (!result.ok()) {
        report.failures.push_back({place, describe(result)});
        return Attempt::NextPlace; // what arrived stays in the partial file for the next place to resume
    }
    if (part.size() != shard.bytes) {
        report.failures.push_back(
            {place, QStringLiteral("the server's file has %1 bytes, the run manifest says %2")
                        .arg(part.size())
                        .arg(shard.bytes)});
        QFile::remove(cache_.partialPath(shard));
        return Attempt::NextPlace;
    }
    if (part.sha256() != shard.sha256) {
        report.failures.push_back(
            {place, QStringLiteral("the bytes have SHA-256 %1, the run manifest says %2: discarded%3")
                        .arg(part.sha256(), shard.sha256,
                             resumed > 0 ? QStringLiteral(" (%1 of them from an earlier try)").arg(resumed)
                                         : QString())});
        QFile::remove(cache_.partialPath(shard));
        return Attempt::NextPlace;
    }
    if (result.outcome == Outcome::CutOff)
        report.failures.push_back(
            {place, describe(result) + QStringLiteral(" (the shard's bytes were right)")});
    cache_.commit(shard);
    report.path = cache_.completePath(shard);
    report.place = place;
    report.bytesResumed = resumed;
    state.done = shard.bytes;
    state.finished = true;
    if (progress)
        progress(state);
    return Attempt::Delivered;
}

} // namespace sahaj::fetch
