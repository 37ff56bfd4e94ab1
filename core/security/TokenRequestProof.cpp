#include "core/security/TokenRequestProof.h"

#include "core/security/PeerIdentity.h"
#include "core/security/SignedText.h"

#include <QtEndian>

#include <stdexcept>

namespace sahaj::security {

namespace {

constexpr QByteArrayView kMagic = "sahaj-token-request-v1";

} // namespace

QByteArray TokenRequestProof::bytes(const Fields& fields) {
    QByteArray out;
    out.append(kMagic);
    SignedText::appendField(out, fields.runId.toUtf8());
    SignedText::appendField(out, fields.sender.bytes());
    SignedText::appendField(out, fields.username.toUtf8());
    SignedText::appendField(out, fields.curvePublicKey);
    const char role = static_cast<char>(fields.role);
    SignedText::appendField(out, QByteArrayView(&role, 1));
    SignedText::appendField(out, fields.currentToken);
    char timestamp[8];
    qToBigEndian(static_cast<quint64>(fields.timestampMs), timestamp);
    SignedText::appendField(out, QByteArrayView(timestamp, 8));
    SignedText::appendField(out, fields.nonce);
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
