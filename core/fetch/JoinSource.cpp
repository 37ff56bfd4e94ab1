#include "core/fetch/JoinSource.h"

#include "core/fetch/HttpFetch.h"
#include "core/run/JoinFile.h"
#include "core/run/ManifestSyntax.h"

#include <QByteArray>

#include <stdexcept>

namespace sahaj::fetch {

bool JoinSource::isUrl(const QString& text) {
    return run::ManifestSyntax::isRemoteUrl(text);
}

run::RunManifest JoinSource::readRun(const QString& text, bool signedOnly, const QString& expectedOrganiser,
                                     const TransferSettings& settings, const std::atomic<bool>* cancel) {
    if (!isUrl(text)) {
        if (const QString problem = run::ManifestSyntax::joinUrlProblem(text); !problem.isEmpty())
            throw std::invalid_argument(problem.toStdString());
        return run::JoinFile::readRun(text, signedOnly, expectedOrganiser);
    }
    QByteArray bytes;
    const FetchResult result = HttpFetch::getSmall(text, run::JoinFile::kMaxBytes, settings, bytes, cancel);
    if (result.outcome == FetchResult::Outcome::CutOff)
        throw std::invalid_argument(QStringLiteral("%1 is larger than a join file may be (%2 bytes)")
                                        .arg(text)
                                        .arg(run::JoinFile::kMaxBytes)
                                        .toStdString());
    if (!result.ok())
        throw std::runtime_error(QStringLiteral("the join file %1 could not be downloaded: %2: %3")
                                     .arg(text, FetchResult::outcomeName(result.outcome), result.message)
                                     .toStdString());
    return run::JoinFile::fromBytes(bytes, text, expectedOrganiser).manifest();
}

} // namespace sahaj::fetch
