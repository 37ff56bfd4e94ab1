#include "core/security/RevocationFile.h"

#include "core/security/ListFileLines.h"
#include "core/security/SecretFile.h"

#include <stdexcept>

namespace sahaj::security {

namespace {

const QString kWhat = QStringLiteral("revocations");

} // namespace

RevocationFile::RevocationFile(const QString& path) : watch_(path), revoked_(load(path)) {}

std::set<PeerId> RevocationFile::load(const QString& path) {
    // Peer ids are public: the organiser may keep the file with any mode.
    const SecretFile file(path, kWhat, kMaxFileBytes, SecretFile::Access::Unchecked);
    return parse(file.read().value_or(QByteArray()), path);
}

std::set<PeerId> RevocationFile::parse(const QByteArray& content, const QString& path) {
    ListFileLines lines(content, kWhat, path);
    std::set<PeerId> revoked;
    for (qsizetype i = 0; i < lines.size(); ++i) {
        const qsizetype hash = lines.at(i).indexOf('#');
        const QByteArray entry = (hash < 0 ? lines.at(i) : lines.at(i).left(hash)).trimmed();
        if (entry.isEmpty())
            continue;
        const QString hex = QString::fromLatin1(entry);
        if (!PeerId::isHex(hex))
            lines.fail(i, QStringLiteral("not a peer id (64 hex digits, then an optional # comment)"));
        const PeerId peer = PeerId::fromHex(hex);
        lines.claim(peer.bytes(), i, QStringLiteral("peer %1").arg(peer.shortHex()));
        revoked.insert(peer);
        if (static_cast<int>(revoked.size()) > kMaxPeers)
            lines.fail(
                i,
                QStringLiteral("more than %1 peers: a run's revocations must fit one record").arg(kMaxPeers));
    }
    return revoked;
}

const std::set<PeerId>& RevocationFile::current() {
    if (!watch_.changed())
        return revoked_;
    try {
        revoked_ = load(watch_.path());
        problem_.clear();
    } catch (const std::exception& e) {
        problem_ = QString::fromUtf8(e.what()) + QStringLiteral(" (the list read before stays in force)");
    }
    return revoked_;
}

} // namespace sahaj::security
