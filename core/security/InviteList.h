#pragma once

#include <QString>
#include <QStringList>

namespace sahaj::security {

// Single-use invite codes: an organiser hands a code to one person, whose first join redeems it. The
// file keeps only each code's SHA-256 (hex) and its state, one `<hash> unused|used` per line (blank lines
// and lines starting with '#' are comments), so a copy of the file admits nobody. Every change re-reads
// the file under a lock and replaces it atomically, so codes added by `sahaj-node auth add-invites` while
// a coordinator runs are neither lost nor reusable.
class InviteList {
public:
    static constexpr qint64 kMaxFileBytes = 16 * 1024 * 1024;
    static constexpr int kMaxInvitesPerCall = 10000;

    // Creates `count` (1..kMaxInvitesPerCall) fresh codes, appends their hashes as unused (creating the
    // file, mode 0600, when absent) and returns the codes: the only time they exist in clear. A code is
    // 16 random bytes as 32 lowercase hex digits in groups of four ("1f0c-9a2e-..."). Throws
    // std::invalid_argument for a bad count, std::runtime_error for a malformed file (left untouched) or
    // an I/O failure.
    static QStringList addInvites(const QString& path, int count);

    // Opens the list at `path`, checking that it exists and is well formed: throws std::runtime_error
    // naming the file (and the line, for a malformed one) otherwise.
    static InviteList open(const QString& path);

    // Redeems `code` (case, spaces and dashes are ignored): true when it was unused, in which case the file
    // already says "used" when this returns, so a crash right after can never make the code reusable.
    // False for a used, unknown or misspelt code. Throws std::runtime_error when the file is malformed or
    // cannot be rewritten (the code then stays unused).
    bool redeem(const QString& code) const;

    // How many codes are still unused (reads the file).
    int unusedCount() const;

private:
    explicit InviteList(QString path) : path_(std::move(path)) {}

    QString path_;
};

} // namespace sahaj::security
