#include "core/security/SecretFile.h"

#include "core/security/RuntimeFailure.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRandomGenerator>

#include <filesystem>
#include <stdexcept>
#include <system_error>

#ifdef Q_OS_UNIX
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

namespace sahaj::security {

namespace {

std::filesystem::path nativePath(const QString& path) {
    return std::filesystem::path(path.toStdU16String());
}

#ifdef Q_OS_UNIX
// The permission bits of `path`; `describe` names the file in the error when it cannot be inspected.
unsigned modeOf(const QString& path, const QString& describe) {
    struct stat status {};
    if (::stat(QFile::encodeName(path).constData(), &status) != 0)
        failWith(QStringLiteral("cannot inspect %1: %2")
                     .arg(describe, QString::fromLocal8Bit(std::strerror(errno))));
    return static_cast<unsigned>(status.st_mode & 0777);
}

// Makes a completed rename survive a crash; failure here is not worth failing the write over.
void syncFolder(const QString& folder) {
    const int descriptor = ::open(QFile::encodeName(folder).constData(), O_RDONLY | O_CLOEXEC);
    if (descriptor >= 0) {
        ::fsync(descriptor);
        ::close(descriptor);
    }
}
#endif

} // namespace

SecretFile::SecretFile(QString path, QString what, qint64 maxBytes, Access access)
    : path_(std::move(path)), what_(std::move(what)), maxBytes_(maxBytes), access_(access) {}

std::optional<QByteArray> SecretFile::read() const {
    const QString describe = QStringLiteral("%1 %2").arg(what_, path_);
    const QFileInfo info(path_);
    if (!info.exists())
        return std::nullopt;
    if (!info.isFile())
        failWith(QStringLiteral("%1 is not a regular file").arg(describe));
#ifdef Q_OS_UNIX
    if (access_ == Access::OwnerOnly) {
        const unsigned mode = modeOf(path_, describe);
        if ((mode & 077) != 0)
            failWith(
                QStringLiteral("%1 is accessible to other users (mode %2); a secret must be readable by its "
                               "owner only: run `chmod 600 %3`")
                    .arg(describe, QStringLiteral("%1").arg(mode, 4, 8, QLatin1Char('0')), path_));
    }
#endif
    if (info.size() > maxBytes_)
        failWith(QStringLiteral("%1 is %2 bytes, more than the %3 allowed")
                     .arg(describe, QString::number(info.size()), QString::number(maxBytes_)));
    QFile file(path_);
    if (!file.open(QIODevice::ReadOnly))
        failWith(QStringLiteral("cannot read %1: %2").arg(describe, file.errorString()));
    // Read one byte past the bound: the file may have grown since the size check.
    QByteArray content = file.read(maxBytes_ + 1);
    if (file.error() != QFileDevice::NoError)
        failWith(QStringLiteral("cannot read %1: %2").arg(describe, file.errorString()));
    if (content.size() > maxBytes_)
        failWith(
            QStringLiteral("%1 is more than the %2 bytes allowed").arg(describe, QString::number(maxBytes_)));
    return content;
}

QByteArray SecretFile::readExisting() const {
    auto content = read();
    if (!content)
        failWith(QStringLiteral("%1 %2 does not exist").arg(what_, path_));
    return std::move(*content);
}

bool SecretFile::createExclusive(const QByteArray& content) const {
    const QString temporaryPath = writeTemporary(content);
    QFile temporary(temporaryPath);
    // QFile::rename never replaces an existing file: the loser of a race sees false and reads the
    // winner's file.
    if (!temporary.rename(path_)) {
        const QString reason = temporary.errorString();
        temporary.remove();
        if (QFileInfo::exists(path_))
            return false;
        failWrite(reason);
    }
#ifdef Q_OS_UNIX
    syncFolder(QFileInfo(path_).absolutePath());
#endif
    return true;
}

void SecretFile::replace(const QByteArray& content) const {
    const QString temporaryPath = writeTemporary(content);
    // std::filesystem::rename replaces atomically (rename(2) on POSIX), where QFile::rename refuses.
    std::error_code error;
    std::filesystem::rename(nativePath(temporaryPath), nativePath(path_), error);
    if (error) {
        QFile::remove(temporaryPath);
        failWrite(QString::fromStdString(error.message()));
    }
#ifdef Q_OS_UNIX
    syncFolder(QFileInfo(path_).absolutePath());
#endif
}

std::unique_ptr<QLockFile> SecretFile::lock(int timeoutMs) const {
    auto lock = std::make_unique<QLockFile>(path_ + QStringLiteral(".lock"));
    if (!lock->tryLock(timeoutMs)) {
        const QString reason = lock->error() == QLockFile::LockFailedError
                                   ? QStringLiteral("another process holds %1.lock").arg(path_)
                                   : QStringLiteral("cannot create %1.lock").arg(path_);
        failWith(QStringLiteral("cannot update %1 %2: %3").arg(what_, path_, reason));
    }
    return lock;
}

QString SecretFile::writeTemporary(const QByteArray& content) const {
    const QFileInfo target(path_);
    const QString temporaryPath = target.dir().filePath(QStringLiteral(".%1.tmp-%2-%3")
                                                            .arg(target.fileName())
                                                            .arg(QCoreApplication::applicationPid())
                                                            .arg(QRandomGenerator::global()->generate()));
    QFile temporary(temporaryPath);
    // NewOnly + explicit permissions: the content is never, even briefly, readable by others.
    if (!temporary.open(QIODevice::WriteOnly | QIODevice::NewOnly,
                        QFileDevice::ReadOwner | QFileDevice::WriteOwner))
        failWrite(QStringLiteral("cannot create %1: %2").arg(temporaryPath, temporary.errorString()));
    const auto discard = [&](const QString& problem) {
        const QString reason = temporary.errorString();
        temporary.close();
        temporary.remove();
        failWrite(QStringLiteral("%1: %2").arg(problem, reason));
    };
    if (temporary.write(content) != content.size() || !temporary.flush())
        discard(QStringLiteral("write failed"));
#ifdef Q_OS_UNIX
    if (::fsync(temporary.handle()) != 0)
        discard(QStringLiteral("fsync failed"));
#endif
    temporary.close();
    return temporaryPath;
}

void SecretFile::failWrite(const QString& reason) const {
    failWith(QStringLiteral("cannot write %1 %2: %3").arg(what_, path_, reason));
}

} // namespace sahaj::security
