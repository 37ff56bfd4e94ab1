#include "core/security/TokenRequestProof.h"

#include "core/security/PeerIdentity.h"

#include <QtEndian>

#include <stdexcept>

namespace sahaj::security {

namespace {

constexpr QByteArrayView kMagic = "sahaj-token-request-v1";

void appendField(QByteArray& out, QByteArrayView bytes) {
    char length[4];
    qToBigEndian(static_cast<quint32>(bytes.size()), length);
    out.append(length, 4);
    out.append(bytes);
}

} // namespace

QByteArray TokenRequestProof::bytes(const Fields& fields) {
    QByteArray out;
    out.append(kMagic);
    appendField(out, fields.runId.toUtf8());
    appendField(out, fields.sender.bytes());
    appendField(out, fields.username.toUtf8());
    appendField(out, fields.curvePublicKey);
    const char role = static_cast<char>(fields.role);
    appendField(out, QByteArrayView(&role, 1));
    appendField(out, fields.currentToken);
    char timestamp[8];
    qToBigEndian(static_cast<quint64>(fields.timestampMs), timestamp);
    appendField(out, QByteArrayView(timestamp, 8));
    appendField(out, fields.nonce);
    return out;
}

QByteArray TokenRequestProof::sign(const PeerIdentity& identity, const Fields& fields) {
    if (fields.sender != identity.id())
        throw std::invalid_argument("a token request proof must be signed by the request's sender");
    return identity.sign(bytes(fields));
}

bool TokenRequestProof::verify(const PeerId& peer, const Fields& fields, QByteArrayView signature) {
    return PeerIdentity::verify(peer, bytes(fields), signature);
}

} // namespace sahaj::security
