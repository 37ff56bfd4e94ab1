#include "core/engine/DataPreparation.h"

#include "core/fetch/ShardCache.h"
#include "core/fetch/ShardDownloader.h"
#include "core/run/ShardVerifier.h"

#include <optional>
#include <stdexcept>

namespace sahaj::engine {

namespace {

void append(std::vector<fetch::PlaceFailure>& to, const std::vector<fetch::PlaceFailure>& from) {
    to.insert(to.end(), from.begin(), from.end());
}

} // namespace

PreparedData DataPreparation::prepare(const run::RunManifest& manifest, const QString& peerId,
                                      const DataSources& sources, const fetch::ProgressCallback& progress,
                                      const Log& log, const std::atomic<bool>* cancel) {
    if (manifest.data.empty())
        throw std::runtime_error("the manifest lists no data shard");
    fetch::ShardCache cache(sources.cacheDir, manifest.runId, sources.cacheCapBytes);
    std::vector<run::DataShard> known = manifest.data;
    if (!manifest.tokenizer.url.isEmpty())
        known.push_back(manifest.tokenizer.asDownload());
    for (const QString& removed : cache.scan(known))
        if (log)
            log(QStringLiteral("shard cache: ") + removed);
    fetch::ShardDownloader downloader(cache, sources.transfer);

    PreparedData prepared;
    prepared.tokenizerPath = manifest.tokenizer.path;
    if (!manifest.tokenizer.url.isEmpty()) {
        const fetch::DownloadReport report =
            downloader.fetch(manifest.tokenizer.asDownload(), sources.mirrors, {}, progress, cancel);
        prepared.tokenizerPath = report.path;
        append(prepared.failures, report.failures);
        prepared.fetched.emplace_back(manifest.tokenizer.asDownload().name(), report);
    }

    QString cursorProblem;
    std::optional<DataCursor> saved;
    if (!sources.cursorPath.isEmpty())
        saved = DataCursor::load(sources.cursorPath, manifest.data, manifest.runId, peerId, &cursorProblem);
    if (!cursorProblem.isEmpty() && log)
        log(cursorProblem);
    DataCursor cursor = saved ? *saved : DataCursor::at(manifest.data, manifest.runId, peerId, 0, 0);
    if (saved && log)
        log(QStringLiteral(
                "continuing where this peer stopped: shard %1 (pass %2, %3 of %4), after %5 batches")
                .arg(manifest.data[saved->shardIndex(manifest.data)].name())
                .arg(saved->pass)
                .arg(saved->position + 1)
                .arg(manifest.data.size())
                .arg(saved->stream.batch));
    QStringList problems;
    for (std::size_t tried = 0; tried < manifest.data.size(); ++tried) {
        const run::DataShard& shard = manifest.data[cursor.shardIndex(manifest.data)];
        if (const std::optional<QString> local = run::ShardVerifier::findInFolder(shard, sources.dataDir)) {
            prepared.corpusPath = *local;
            prepared.corpusPlace = *local;
            prepared.cursor = cursor;
            return prepared;
        }
        try {
            const fetch::DownloadReport report =
                downloader.fetch(shard, sources.mirrors, {manifest.tokenizer.sha256}, progress, cancel);
            append(prepared.failures, report.failures);
            prepared.fetched.emplace_back(shard.name(), report);
            prepared.corpusPath = report.path;
            prepared.corpusPlace = report.place;
            prepared.cursor = cursor;
            return prepared;
        } catch (const fetch::DownloadFailed& e) {
            append(prepared.failures, e.failures);
            if (e.diskFull)
                throw;
            problems.append(QString::fromUtf8(e.what()));
            if (log)
                log(QString::fromUtf8(e.what()));
        }
        cursor = cursor.next(manifest.data, manifest.runId, peerId);
    }
    throw std::runtime_error(("no shard of the run could be fetched:\n" + problems.join('\n')).toStdString());
}

} // namespace sahaj::engine
