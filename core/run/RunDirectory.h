#pragma once

#include "core/run/RunListing.h"

#include <QByteArray>
#include <QString>

#include <cstdint>
#include <vector>

namespace sahaj::security {
class PeerIdentity;
}

namespace sahaj::run {

// A signed list of runs that volunteers can choose from, like BOINC's project list: published at a URL by
// whoever keeps the directory, whose key the volunteer sets next to that URL (docs/joining.md). As a file it
// is a JSON object {"format": "sahaj-run-directory/1", "signer": 64 hex digits, "directory": base64 of the
// signed bytes, "signature": base64 of the signer's Ed25519 signature of them}; the signed bytes are the
// compact JSON {"issued": milliseconds since the epoch, "runs": [listing, ...]}.
//
// Verification: the signer is the key the volunteer set, the signature verifies over exactly the bytes
// carried, those bytes are the canonical form of what they say (no unknown keys, no second encoding), and
// every listing is checked in meaning (bounded texts without control characters, a 64-digit key, a join
// link or a remote URL, sizes that are not negative). A directory cannot point at a file on the
// volunteer's disk, and a run chosen from it is joined with its organiser's key pinned.
class RunDirectory {
public:
    static constexpr const char* kFormat = "sahaj-run-directory/1";
    static constexpr qsizetype kMaxBytes = 1024 * 1024;
    static constexpr int kMaxRuns = 256;
    static constexpr qsizetype kMaxTitle = 80;
    static constexpr qsizetype kMaxOrganiser = 80;
    static constexpr qsizetype kMaxDescription = 2000;
    static constexpr qsizetype kMaxJoin = 8192; // a join link is about 2,000 characters

    // Checks every listing (std::invalid_argument naming the first problem) and signs them.
    static RunDirectory sign(std::vector<RunListing> runs, std::int64_t issuedMs,
                             const security::PeerIdentity& signer);
    // Parses and verifies (see above). `expectedSigner`: the 64 hex digits the volunteer set. Throws
    // std::invalid_argument naming `origin` and what failed.
    static RunDirectory fromBytes(const QByteArray& bytes, const QString& origin,
                                  const QString& expectedSigner);
    // The listings of an organiser's plain file {"runs": [listing, ...]}, checked as fromBytes checks them:
    // what `sahaj-node sign-directory` signs. std::invalid_argument naming `origin`.
    static std::vector<RunListing> listingsFromJson(const QByteArray& bytes, const QString& origin);

    QByteArray toBytes() const;

    const std::vector<RunListing>& runs() const { return runs_; }
    std::int64_t issuedMs() const { return issuedMs_; }
    const QString& signer() const { return signer_; }

private:
    RunDirectory(std::vector<RunListing> runs, std::int64_t issuedMs, QString signer, QByteArray signature);

    std::vector<RunListing> runs_;
    std::int64_t issuedMs_ = 0;
    QString signer_;
    QByteArray signature_;
};

} // namespace sahaj::run
