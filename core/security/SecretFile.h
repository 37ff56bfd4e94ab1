#pragma once

#include <QByteArray>
#include <QLockFile>
#include <QString>

#include <memory>
#include <optional>

namespace sahaj::security {

// A small file holding something secret or admission state: a private key, the allowlist, the invite
// codes. Reading is bounded and checked; every write goes through a temporary file created with mode 0600
// in the same folder, flushed to the disk and renamed, so the content is never, even briefly, readable by
// others and a crash never leaves half a file. `what` names the file's kind in every error message
// ("identity key file", "allowlist"), so the user knows which file is wrong.
class SecretFile {
public:
    // Whether reading refuses a file that group or others may access. A private key others could read is
    // no longer private, so key files demand it; the lists keep only hashes and may be written by hand.
    enum class Access { OwnerOnly, Unchecked };

    SecretFile(QString path, QString what, qint64 maxBytes, Access access);

    const QString& path() const { return path_; }

    // The file's bytes, or nullopt when nothing exists at the path. Throws std::runtime_error naming the
    // file when it is not a regular file, is larger than maxBytes, cannot be read, or (POSIX, OwnerOnly)
    // grants any access to group or others: then the message tells the user to run chmod 600 (nothing
    // here changes the mode behind the user's back).
    std::optional<QByteArray> read() const;
    // As read(), but a missing file is an error too: "<what> <path> does not exist".
    QByteArray readExisting() const;

    // Creates the file holding `content` only when none exists: the rename never replaces, so two
    // processes racing to create a key cannot overwrite each other's. Returns false, writing nothing, when
    // a file appeared at the path meanwhile. Throws std::runtime_error naming the file on any I/O failure.
    bool createExclusive(const QByteArray& content) const;

    // Makes the file hold exactly `content`, replacing it atomically: readers see the old file or the new
    // one, never a mix. Throws std::runtime_error on any failure, leaving the file as it was.
    void replace(const QByteArray& content) const;

    // Holds `path`.lock until the returned object is destroyed; a read-modify-write happens under it.
    // Throws std::runtime_error when another process keeps the lock for `timeoutMs`.
    std::unique_ptr<QLockFile> lock(int timeoutMs = 10000) const;

private:
    // Writes `content` to a fresh owner-only temporary file beside the target and returns its path.
    QString writeTemporary(const QByteArray& content) const;
    [[noreturn]] void failWrite(const QString& reason) const;

    QString path_;
    QString what_;
    qint64 maxBytes_;
    Access access_;
};

} // namespace sahaj::security
