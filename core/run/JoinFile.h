#pragma once

#include "core/run/RunManifest.h"

#include <QByteArray>
#include <QString>

namespace sahaj::security {
class PeerIdentity;
}

namespace sahaj::run {

// What a volunteer receives to join a run: the manifest, signed by the run's organiser. As a file it is a
// small JSON object {"format": "sahaj-join/1", "manifest": base64 of the manifest's canonical bytes,
// "signature": base64 of the organiser's Ed25519 signature of those bytes}; as a link it is that file,
// compressed, after "sahaj:join/" in base64url, to paste or to click.
//
// What verification means: the signature is the one of the key the manifest names as its organiser, over
// exactly the bytes it carries; those bytes are a valid manifest whose canonical form they are (so no byte
// escapes the signature or the checks: no unknown keys, no second encoding of the same run). A volunteer
// who got the organiser's key from somewhere else (the organiser's web page) pins it, and then a manifest
// signed by anybody else is refused, even a valid one.
class JoinFile {
public:
    static constexpr const char* kFormat = "sahaj-join/1";
    static constexpr const char* kLinkPrefix = "sahaj:join/";
    static constexpr qsizetype kMaxBytes = 1024 * 1024; // a manifest may have 256 KiB; base64 and JSON

    // Sets manifest.organiser to the organiser's key and signs the manifest's canonical bytes.
    static JoinFile sign(RunManifest manifest, const security::PeerIdentity& organiser);

    // Parses and verifies (see above). `expectedOrganiser`: 64 hex digits the organiser must have, or empty
    // to trust the key the manifest names. Throws std::invalid_argument naming `origin` and what failed.
    static JoinFile fromBytes(const QByteArray& bytes, const QString& origin,
                              const QString& expectedOrganiser = {});
    static JoinFile fromLink(const QString& link, const QString& expectedOrganiser = {});
    // The run a peer is told to join: a join link, a join file, or (only when `signedOnly` is false: the
    // organiser's own coordinator, local runs) a plain manifest file. std::invalid_argument for a plain
    // manifest when `signedOnly`, and for anything that does not verify; std::runtime_error for a file
    // that cannot be read.
    static RunManifest readRun(const QString& linkOrPath, bool signedOnly,
                               const QString& expectedOrganiser = {});
    // What is wrong with `bytes`, read from the file `path`, as what a peer is told to join, in one plain
    // sentence for each kind (empty, too large, not text, other text, JSON of another kind or format, a
    // plain manifest when `signedOnly`); empty when it looks like a join file (or, unless `signedOnly`, a
    // manifest): fromBytes then verifies it.
    static QString problemWithFile(const QString& path, const QByteArray& bytes, bool signedOnly);
    // Whether `text` is a join link rather than a path.
    static bool isLink(const QString& text);
    // Whether `bytes` look like a join file (a JSON object of this format), before any verification.
    static bool looksLikeJoinFile(const QByteArray& bytes);

    QByteArray toBytes() const;
    QString toLink() const;
    // Atomic (QSaveFile); std::runtime_error on failure.
    void saveFile(const QString& path) const;
    // Where run-init puts the join file of the manifest at `manifestPath`: DIR/NAME.join for DIR/NAME.json.
    static QString pathBeside(const QString& manifestPath);

    const RunManifest& manifest() const { return manifest_; }
    const QByteArray& signature() const { return signature_; }

private:
    JoinFile(RunManifest manifest, QByteArray signature);

    RunManifest manifest_;
    QByteArray signature_;
};

} // namespace sahaj::run
