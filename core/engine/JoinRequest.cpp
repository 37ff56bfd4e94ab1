#include "core/engine/JoinRequest.h"

#include "core/run/JoinFile.h"
#include "core/run/ManifestSyntax.h"
#include "core/security/PeerId.h"

#include <QRegularExpression>

#include <stdexcept>

namespace sahaj::engine {

bool JoinRequest::isDeviceName(const QString& text) {
    static const QRegularExpression name(QStringLiteral("^(auto|cpu|cuda|cuda:[0-9]{1,2})$"));
    return name.match(text).hasMatch();
}

QString JoinRequest::problem() const {
    if (run.trimmed().isEmpty())
        return QStringLiteral("choose the run to join: paste its join link or pick its join file");
    if (identityDir.isEmpty())
        return QStringLiteral("the folder for this peer's keys is not set");
    static const QRegularExpression countryCode(QStringLiteral("^[A-Z]{2}$"));
    if (!country.isEmpty() && !countryCode.match(country).hasMatch())
        return QStringLiteral("the country must be a two-letter ISO 3166 code such as BD, or none");
    if (!isDeviceName(device))
        return QStringLiteral("the device must be auto, cpu, cuda or cuda:N");
    if (!organiser.isEmpty() && !security::PeerId::isHex(organiser))
        return QStringLiteral("the organiser key must be 64 hexadecimal digits");
    if (threads < 0 || threads > 1024)
        return QStringLiteral("the thread count must be between 0 (automatic) and 1024");
    return limits.problem();
}

QString JoinRequest::runProblem(const QString& run, const QString& organiser) {
    const QString text = run.trimmed();
    if (text.isEmpty())
        return QStringLiteral(
            "no run chosen: paste the join link, or choose the join file, its organiser gave you");
    if (run::ManifestSyntax::isRemoteUrl(text))
        return {};
    if (const QString problem = run::ManifestSyntax::joinUrlProblem(text); !problem.isEmpty())
        return problem;
    try {
        run::JoinFile::readRun(text, /*signedOnly=*/true, organiser);
        return {};
    } catch (const std::exception& e) {
        return QString::fromUtf8(e.what());
    }
}

} // namespace sahaj::engine
