#include "core/admission/AdmittedToken.h"

#include "core/security/AccessToken.h"

#include <QByteArray>

#include <exception>

namespace sahaj::admission {

QString AdmittedToken::problem(const std::string& token, const std::string& sender,
                               const std::string& connectionUser, const security::PeerId& organiser,
                               const QString& runId, qint64 nowSeconds) {
    try {
        const security::AccessToken parsed =
            security::AccessToken::fromBytes(QByteArray::fromStdString(token));
        if (const QString problem = parsed.check(organiser, runId, nowSeconds); !problem.isEmpty())
            return problem;
        if (parsed.peer().bytes() != QByteArray::fromStdString(sender))
            return QStringLiteral("the token names another peer than the request's sender");
        if (parsed.curvePublicKey().toHex().toStdString() != connectionUser)
            return QStringLiteral("the token names another CURVE key than its connection");
        return {};
    } catch (const std::exception& e) {
        return QStringLiteral("the token is malformed: %1").arg(QString::fromUtf8(e.what()));
    }
}

} // namespace sahaj::admission
