#pragma once

#include "core/security/PeerId.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QString>

#include <cstdint>

namespace sahaj::security {

class PeerIdentity;

// What a run's coordinator issues to an admitted volunteer: it binds the volunteer's Ed25519 identity and
// CURVE public key to one run, one role and a validity period, signed by the organiser. Peers and the ZAP
// handler admit a key only on a token that check() accepts.
//
// Wire form: the canonical encoding (the ASCII magic "sahaj-token-v1", then each field in a fixed order as
// a 4-byte big-endian length and its bytes; integers 8-byte big-endian, the role 1 byte) followed by the
// organiser's 64-byte Ed25519 signature of that encoding. One value has exactly one encoding, so the bytes
// signed are the bytes parsed.
class AccessToken {
public:
    enum class Role : std::uint8_t { Node = 0, Client = 1, Aux = 2, Coordinator = 3 };

    static constexpr qsizetype kMaxRunIdBytes = 128;
    static constexpr qsizetype kMaxBytes = 1024;
    // Clocks of volunteers' machines disagree; a token is honoured this long before and after its period.
    static constexpr qint64 kClockSkewSeconds = 60;
    // The latest time a token may name (9999-12-31T23:59:59Z): keeps every sum of times far from overflow.
    static constexpr qint64 kMaxTimeSeconds = 253402300799;

    // A token for these fields, signed by `organiser`. Throws std::invalid_argument when a field breaks
    // the rules fromBytes() enforces (run id empty, over kMaxRunIdBytes or not UTF-8, user name (see
    // Username), a CURVE key that is not 32 bytes, a time outside [0, kMaxTimeSeconds], expiresAt not
    // after issuedAt).
    static AccessToken issue(const QString& runId, const QString& username, const PeerId& peer,
                             QByteArrayView curvePublicKey, Role role, qint64 issuedAt, qint64 expiresAt,
                             const PeerIdentity& organiser);

    // The wire form: encoding followed by signature.
    QByteArray toBytes() const;
    // Parses the wire form. Throws std::invalid_argument saying precisely what is malformed (too large,
    // wrong magic, truncated, trailing bytes, a field over its limit, a bad role, expiry before issue).
    // The signature is not checked here: check() does that against the organiser the caller trusts.
    static AccessToken fromBytes(QByteArrayView bytes);

    // Empty when the token is valid for `runId` at `nowSeconds`, signed by `organiser`; otherwise why not
    // (bad signature, another run, expired, not yet valid), allowing kClockSkewSeconds either way.
    QString check(const PeerId& organiser, const QString& runId, qint64 nowSeconds) const;
    // check()'s part about time alone, for a token whose signature and run were checked before.
    QString checkTime(qint64 nowSeconds) const;
    // Whether less than a third of its lifetime is left at `nowSeconds`: time to ask for a new one.
    bool needsRefresh(qint64 nowSeconds) const;

    const QString& runId() const { return runId_; }
    const QString& username() const { return username_; }
    const PeerId& peer() const { return peer_; }
    const QByteArray& curvePublicKey() const { return curvePublicKey_; }
    Role role() const { return role_; }
    qint64 issuedAt() const { return issuedAt_; }
    qint64 expiresAt() const { return expiresAt_; }
    const QByteArray& signature() const { return signature_; }

    // "node", "client", "aux" or "coordinator".
    static QString roleName(Role role);

private:
    AccessToken() = default;
    // The canonical encoding of the fields: the bytes the organiser signs.
    QByteArray signedBytes() const;
    // Throws std::invalid_argument, "`context`: problem", naming the first field that breaks its rule.
    void checkFields(const char* context) const;

    QString runId_;
    QString username_;
    PeerId peer_;
    QByteArray curvePublicKey_;
    Role role_ = Role::Node;
    qint64 issuedAt_ = 0;
    qint64 expiresAt_ = 0;
    QByteArray signature_;
};

} // namespace sahaj::security
