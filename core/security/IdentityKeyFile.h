#pragma once

#include <QByteArray>
#include <QString>

#include <optional>

namespace sahaj::security {

// The file that keeps a peer's private key. Reading applies the checks a secret deserves; creating
// happens once, atomically, with the file readable by its owner only, and never replaces a file.
class IdentityKeyFile {
public:
    static constexpr qint64 kMaxBytes = 64 * 1024; // a PEM Ed25519 key is ~120 bytes

    // The file's bytes, or nullopt when nothing exists at `path`. Throws std::runtime_error naming the
    // file when it is not a regular file, is too large, cannot be read, or (POSIX) grants any access to
    // group or others: a private key others could read is refused rather than used, and the message
    // tells the user to run chmod 600 (nothing here changes the mode behind the user's back).
    static std::optional<QByteArray> read(const QString& path);

    // Creates `path` holding `content`, only when no file exists there: the content goes to a temporary
    // file created with mode 0600 in the same folder, is flushed to the disk, and is renamed without
    // replacing. Returns false, writing nothing, when a file appeared at `path` meanwhile (another process
    // created its identity first). Throws std::runtime_error naming the file on any I/O failure.
    static bool createExclusive(const QString& path, const QByteArray& content);
};

} // namespace sahaj::security
