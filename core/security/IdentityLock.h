#pragma once

#include <QLockFile>
#include <QString>

#include <memory>

namespace sahaj::security {

// The lock that keeps an identity folder to one process: two processes with one identity would be one peer
// id in two places, and the DHT and the groups would mix them up. Held as long as the returned lock lives.
class IdentityLock {
public:
    // The lock of `identityDir`, or nullptr when another live process holds it. A lock is stale only when
    // its process is gone: QLockFile's default would also take the lock of a process that has held it for
    // 30 s, that is, of every running peer.
    static std::unique_ptr<QLockFile> take(const QString& identityDir);
};

} // namespace sahaj::security
