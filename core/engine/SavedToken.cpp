#include "core/engine/SavedToken.h"

#include "core/security/AccessToken.h"
#include "core/security/SecretFile.h"

#include <QCryptographicHash>
#include <QDir>

#include <stdexcept>

namespace sahaj::engine {

namespace {

security::SecretFile fileAt(const QString& path) {
    return security::SecretFile(path, QStringLiteral("saved access token"), security::AccessToken::kMaxBytes,
                                security::SecretFile::Access::OwnerOnly);
}

} // namespace

SavedToken::SavedToken(const QString& identityDir, const QString& runId)
    // A run id is the organiser's text: hashed, it names a file whatever it holds.
    : path_(QDir(identityDir)
                .filePath(
                    QStringLiteral("token-") +
                    QString::fromLatin1(QCryptographicHash::hash(runId.toUtf8(), QCryptographicHash::Sha256)
                                            .toHex()
                                            .left(16)))) {}

std::optional<QByteArray> SavedToken::load() const {
    try {
        return fileAt(path_).read();
    } catch (const std::runtime_error&) {
        return std::nullopt;
    }
}

QString SavedToken::save(const QByteArray& token) const {
    try {
        fileAt(path_).replace(token);
        return {};
    } catch (const std::runtime_error& e) {
        return QString::fromStdString(e.what());
    }
}

} // namespace sahaj::engine
