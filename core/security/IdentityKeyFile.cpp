#include "core/security/IdentityKeyFile.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRandomGenerator>

#include <stdexcept>

#ifdef Q_OS_UNIX
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

namespace sahaj::security {

namespace {

[[noreturn]] void fail(const QString& message) {
    throw std::runtime_error(message.toStdString());
}

#ifdef Q_OS_UNIX
// Refuses a key file whose mode grants anything to group or others.
void checkOwnerOnly(const QString& path) {
    struct stat status {};
    if (::stat(QFile::encodeName(path).constData(), &status) != 0)
        fail(QStringLiteral("cannot inspect identity key file %1: %2")
                 .arg(path, QString::fromLocal8Bit(std::strerror(errno))));
    const auto mode = static_cast<unsigned>(status.st_mode & 0777);
    if ((mode & 077) != 0)
        fail(QStringLiteral("identity key file %1 is accessible to other users (mode %2); a private key must "
                            "be readable by its owner only: run `chmod 600 %1`")
                 .arg(path)
                 .arg(mode, 4, 8, QLatin1Char('0')));
}

// Makes a completed rename survive a crash; failure here is not worth failing the identity over.
void syncFolder(const QString& folder) {
    const int descriptor = ::open(QFile::encodeName(folder).constData(), O_RDONLY | O_CLOEXEC);
    if (descriptor >= 0) {
        ::fsync(descriptor);
        ::close(descriptor);
    }
}
#endif

} // namespace

std::optional<QByteArray> IdentityKeyFile::read(const QString& path) {
    const QFileInfo info(path);
    if (!info.exists())
        return std::nullopt;
    if (!info.isFile())
        fail(QStringLiteral("identity key file %1 is not a regular file").arg(path));
#ifdef Q_OS_UNIX
    checkOwnerOnly(path);
#endif
    if (info.size() > kMaxBytes)
        fail(QStringLiteral("identity key file %1 is %2 bytes, too large to be a key (at most %3)")
                 .arg(path)
                 .arg(info.size())
                 .arg(kMaxBytes));
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        fail(QStringLiteral("cannot read identity key file %1: %2").arg(path, file.errorString()));
    QByteArray content = file.read(kMaxBytes + 1);
    if (file.error() != QFileDevice::NoError)
        fail(QStringLiteral("cannot read identity key file %1: %2").arg(path, file.errorString()));
    return content;
}

bool IdentityKeyFile::createExclusive(const QString& path, const QByteArray& content) {
    const QFileInfo target(path);
    const QString temporaryPath = target.dir().filePath(QStringLiteral(".%1.tmp-%2-%3")
                                                            .arg(target.fileName())
                                                            .arg(QCoreApplication::applicationPid())
                                                            .arg(QRandomGenerator::global()->generate()));
    QFile temporary(temporaryPath);
    // NewOnly + explicit permissions: the file is never, even briefly, readable by others.
    if (!temporary.open(QIODevice::WriteOnly | QIODevice::NewOnly,
                        QFileDevice::ReadOwner | QFileDevice::WriteOwner))
        fail(QStringLiteral("cannot create identity key file %1: %2")
                 .arg(temporaryPath, temporary.errorString()));
    const auto discard = [&](const QString& problem) {
        const QString reason = temporary.errorString();
        temporary.close();
        temporary.remove();
        fail(QStringLiteral("cannot write identity key file %1: %2: %3").arg(path, problem, reason));
    };
    if (temporary.write(content) != content.size() || !temporary.flush())
        discard(QStringLiteral("write failed"));
#ifdef Q_OS_UNIX
    if (::fsync(temporary.handle()) != 0)
        discard(QStringLiteral("fsync failed"));
#endif
    temporary.close();
    // QFile::rename never replaces an existing file, so two processes racing to create an identity
    // cannot overwrite each other's key: the loser sees false and reads the winner's file.
    if (!temporary.rename(path)) {
        const QString reason = temporary.errorString();
        temporary.remove();
        if (QFileInfo::exists(path))
            return false;
        fail(QStringLiteral("cannot create identity key file %1: %2").arg(path, reason));
    }
#ifdef Q_OS_UNIX
    syncFolder(target.absolutePath());
#endif
    return true;
}

} // namespace sahaj::security
