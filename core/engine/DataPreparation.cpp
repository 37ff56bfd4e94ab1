#include "core/engine/DataPreparation.h"

#include "core/fetch/ShardCache.h"
#include "core/fetch/ShardDownloader.h"
#include "core/run/ShardOrder.h"
#include "core/run/ShardVerifier.h"

#include <QDir>
#include <QFileInfo>
#include <QUrl>

#include <optional>
#include <stdexcept>

namespace sahaj::engine {

namespace {

// A shard copied by hand into `dataDir`, under the file name of one of its places.
std::optional<QString> inDataDir(const run::DataShard& shard, const QString& dataDir) {
    if (dataDir.isEmpty())
        return std::nullopt;
    for (const QString& url : shard.urls) {
        const QString name = QFileInfo(QUrl(url).path()).fileName();
        const QString path = QDir(dataDir).filePath(name);
        if (!name.isEmpty() && QFileInfo(path).isFile()) {
            run::ShardVerifier::verifyFile(shard, path);
            return QFileInfo(path).absoluteFilePath();
        }
    }
    return std::nullopt;
}

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
            downloader.fetch(manifest.tokenizer.asDownload(), {}, {}, progress, cancel);
        prepared.tokenizerPath = report.path;
        append(prepared.failures, report.failures);
    }

    const std::vector<std::size_t> order = run::ShardOrder::forPeer(manifest.data, manifest.runId, peerId);
    QStringList problems;
    for (const std::size_t index : order) {
        const run::DataShard& shard = manifest.data[index];
        if (const std::optional<QString> local = inDataDir(shard, sources.dataDir)) {
            prepared.corpusPath = *local;
            prepared.corpusPlace = *local;
            return prepared;
        }
        try {
            const fetch::DownloadReport report =
                downloader.fetch(shard, {}, {manifest.tokenizer.sha256}, progress, cancel);
            append(prepared.failures, report.failures);
            prepared.corpusPath = report.path;
            prepared.corpusPlace = report.place;
            return prepared;
        } catch (const fetch::DownloadFailed& e) {
            append(prepared.failures, e.failures);
            if (e.diskFull)
                throw;
            problems.append(QString::fromUtf8(e.what()));
            if (log)
                log(QString::fromUtf8(e.what()));
        }
    }
    throw std::runtime_error(("no shard of the run could be fetched:\n" + problems.join('\n')).toStdString());
}

} // namespace sahaj::engine
