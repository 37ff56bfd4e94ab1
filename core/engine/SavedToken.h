#pragma once

#include <QByteArray>
#include <QString>

#include <optional>

namespace sahaj::engine {

// The access token a volunteer was last given for a run, kept beside its keys (owner-only, like them), so
// that a restart rejoins with it, and renews it, instead of asking for the password again (what BOINC,
// Folding@home and qBittorrent do: a secret is typed once). One file per run: identityDir/token-<hash of
// the run id>. The file is the peer's own, but it is read as untrusted all the same: the caller checks the
// token (signature, run, keys, time) before using it.
class SavedToken {
public:
    SavedToken(const QString& identityDir, const QString& runId);

    const QString& path() const { return path_; }
    // The saved bytes; nullopt when none are saved or the file cannot be read (a damaged file costs only
    // the password, asked again).
    std::optional<QByteArray> load() const;
    // Replaces the saved token. Returns the problem (the folder is read-only, the disk is full), empty on
    // success: a token that could not be kept is no reason to stop training.
    QString save(const QByteArray& token) const;

private:
    QString path_;
};

} // namespace sahaj::engine
