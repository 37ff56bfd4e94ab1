#include "core/security/IdentityLock.h"

#include <QDir>

namespace sahaj::security {

std::unique_ptr<QLockFile> IdentityLock::take(const QString& identityDir) {
    auto lock = std::make_unique<QLockFile>(QDir(identityDir).filePath(QStringLiteral("identity.lock")));
    lock->setStaleLockTime(0);
    if (!lock->tryLock(0))
        return nullptr;
    return lock;
}

} // namespace sahaj::security
