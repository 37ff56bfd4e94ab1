#include "app/node/SignDirectoryCommand.h"

#include "app/node/CommandLine.h"
#include "core/run/RunDirectory.h"
#include "core/security/PeerId.h"
#include "core/security/PeerIdentity.h"

#include <QDateTime>
#include <QFile>
#include <QSaveFile>

#include <stdexcept>

namespace sahaj::node {

QString SignDirectoryCommand::description() const {
    return summary() +
           QStringLiteral(
               ".\n\n--runs is a JSON file {\"runs\": [{\"title\", \"description\", \"organiser\", "
               "\"organiserKey\", \"join\", \"parameters\", \"downloadBytes\"}, ...]}; every entry is "
               "checked as the app checks it. The signed directory is written to --out, to publish "
               "at a URL; volunteers set that URL and the key printed here in Settings ▸ Run.");
}

void SignDirectoryCommand::addOptions(QCommandLineParser& parser) const {
    parser.addOptions({
        {"runs", "The runs to list (JSON, see above).", "FILE"},
        {"out", "The signed directory to write (replaced atomically).", "FILE"},
        {"key", "Folder of the directory's signing key, created on first use.", "DIR"},
    });
}

int SignDirectoryCommand::run(const QCommandLineParser& parser) {
    const QString runsPath = CommandLine::existingFile("runs", CommandLine::requiredValue(parser, "runs"));
    const QString outPath = CommandLine::requiredValue(parser, "out");
    const QString keyDir = CommandLine::requiredValue(parser, "key");
    QFile runsFile(runsPath);
    if (!runsFile.open(QIODevice::ReadOnly))
        throw std::runtime_error(
            QStringLiteral("cannot read '%1': %2").arg(runsPath, runsFile.errorString()).toStdString());
    std::vector<run::RunListing> runs =
        run::RunDirectory::listingsFromJson(runsFile.read(run::RunDirectory::kMaxBytes + 1), runsPath);
    const security::PeerIdentity signer = security::PeerIdentity::loadOrCreate(keyDir);
    const run::RunDirectory directory =
        run::RunDirectory::sign(std::move(runs), QDateTime::currentMSecsSinceEpoch(), signer);

    QSaveFile out(outPath);
    if (!out.open(QIODevice::WriteOnly) || out.write(directory.toBytes()) < 0 || !out.commit())
        throw std::runtime_error(
            QStringLiteral("cannot write '%1': %2").arg(outPath, out.errorString()).toStdString());
    CommandLine::out() << "signed " << directory.runs().size() << " run(s) into " << outPath
                       << "\ndirectory key: " << directory.signer() << '\n';
    return 0;
}

} // namespace sahaj::node
