#pragma once

#include "core/security/FileChangeWatch.h"
#include "core/security/PeerId.h"

#include <QByteArray>
#include <QString>

#include <set>

namespace sahaj::security {

// The organiser's revocations, a text file on the coordinator (coordinator --revocations FILE): one peer
// id per line, 64 hex digits, optionally followed by a comment after '#' (why, when); blank lines and
// lines that are only a comment are skipped. The coordinator refuses the listed peers every token,
// renewals too, and publishes the list to the run (collab::RevocationBoard), whose peers refuse their
// records and connections from then on (docs/security.md, "Revocation").
//
// The file is read again whenever it changed, so revoking needs no restart; an edit that does not load
// leaves the list read before in force (a half-written file must not un-revoke anyone), its problem in
// problem().
class RevocationFile {
public:
    // What one DHT record can carry (RecordEnvelope::kMaxPayloadBytes: 16 KiB, 34 bytes an id).
    static constexpr int kMaxPeers = 400;
    static constexpr qint64 kMaxFileBytes = 256 * 1024;

    // Reads `path`; a missing file is an empty list (revocations come later). Throws std::runtime_error
    // naming the file and line when it does not load.
    explicit RevocationFile(const QString& path);

    // The ids listed now, read again first when the file changed.
    const std::set<PeerId>& current();
    const QString& path() const { return watch_.path(); }
    // Why the file's last change could not be read, or empty. For the organiser's log.
    const QString& problem() const { return problem_; }

    // The ids in `content`; throws std::runtime_error "revocations <path> line <n>: <problem>" for a line
    // that is not a peer id, an id listed twice, or more than kMaxPeers ids.
    static std::set<PeerId> parse(const QByteArray& content, const QString& path);

private:
    static std::set<PeerId> load(const QString& path);

    FileChangeWatch watch_;
    std::set<PeerId> revoked_;
    QString problem_;
};

} // namespace sahaj::security
