#include "core/fetch/RunDirectorySource.h"

#include "core/fetch/HttpFetch.h"
#include "core/run/ManifestSyntax.h"

#include <QByteArray>

#include <stdexcept>

namespace sahaj::fetch {

run::RunDirectory RunDirectorySource::read(const QString& url, const QString& key,
                                           const TransferSettings& settings,
                                           const std::atomic<bool>* cancel) {
    if (!run::ManifestSyntax::isRemoteUrl(url))
        throw std::invalid_argument(QStringLiteral("'%1' is not a run directory's address: %2")
                                        .arg(url.left(200), run::ManifestSyntax::remoteUrlRule())
                                        .toStdString());
    QByteArray bytes;
    const FetchResult result =
        HttpFetch::getSmall(url, run::RunDirectory::kMaxBytes, settings, bytes, cancel);
    if (result.outcome == FetchResult::Outcome::CutOff)
        throw std::invalid_argument(QStringLiteral("%1 is larger than a run directory may be (%2 bytes)")
                                        .arg(url)
                                        .arg(run::RunDirectory::kMaxBytes)
                                        .toStdString());
    if (!result.ok())
        throw std::runtime_error(QStringLiteral("the run directory %1 could not be downloaded: %2: %3")
                                     .arg(url, FetchResult::outcomeName(result.outcome), result.message)
                                     .toStdString());
    return run::RunDirectory::fromBytes(bytes, url, key);
}

} // namespace sahaj::fetch
