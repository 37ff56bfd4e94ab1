#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QHash>
#include <QString>

#include <cstdint>

namespace sahaj::security {

// The users a run admits by password: a text file, one `username:<Argon2id encoded hash>` per line (the
// encoded form carries its own salt and cost, so entries made with different costs live side by side).
// Blank lines and lines starting with '#' are comments. Only hashes are stored: a leaked file does not
// give away passwords, and Argon2id makes guessing them expensive.
class AllowList {
public:
    // Argon2id's cost: passes over memory, memory in KiB, lanes. The default follows RFC 9106's second
    // recommended option (t=3, 64 MiB); tests pass a cheaper one.
    struct Cost {
        std::uint32_t iterations = 3;
        std::uint32_t memoryKiB = 64 * 1024;
        std::uint32_t parallelism = 1;
    };

    static constexpr qint64 kMaxFileBytes = 16 * 1024 * 1024;

    // Sets `username`'s password: hashes `password` (its bytes, UTF-8 for text) with a fresh 16-byte salt
    // and writes the file atomically, replacing the user's line if present, appending one otherwise, and
    // keeping every other line as it was. Creates the file (mode 0600) when absent. Throws
    // std::invalid_argument for a bad user name, an empty password or an impossible cost, and
    // std::runtime_error for a malformed existing file (which is left untouched) or an I/O failure.
    static void addUser(const QString& path, const QString& username, QByteArrayView password, Cost cost);
    // The same with the default Cost. (An overload, not a default argument: a nested struct's member
    // initialisers are not usable in its enclosing class's declarations.)
    static void addUser(const QString& path, const QString& username, QByteArrayView password);

    // Reads the file. Throws std::runtime_error naming the file and the line for a malformed line or a
    // user listed twice, and naming the file when it is missing or unreadable.
    static AllowList load(const QString& path);

    // Whether `password` is `username`'s password. The comparison inside Argon2 is constant-time, and an
    // unknown user costs one hash too, so the time taken does not tell who is on the list.
    bool verify(const QString& username, QByteArrayView password) const;

    bool contains(const QString& username) const { return hashes_.contains(username); }
    qsizetype size() const { return hashes_.size(); }

private:
    AllowList() = default;

    QHash<QString, QByteArray> hashes_; // user name -> encoded hash
    // An entry's hash, verified (and ignored) for unknown users so that they take as long as known ones.
    QByteArray decoyHash_;
};

} // namespace sahaj::security
