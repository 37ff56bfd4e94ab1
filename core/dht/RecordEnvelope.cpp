#include "core/dht/RecordEnvelope.h"

#include "core/security/PeerIdentity.h"

#include <QtEndian>

#include <stdexcept>

namespace sahaj::dht {

namespace {

constexpr char kMagic[4] = {'S', 'H', 'R', '2'};
// Domain separation: a signature made for a DHT record is never valid for any other Sahaj message.
constexpr char kSigningContext[] = "sahaj/dht-record/v2";
// system_clock counts nanoseconds in 64 bits (until year 2262); later times would overflow on conversion.
constexpr std::int64_t kLatestMs = 9'000'000'000'000;

std::int64_t toMs(RecordEnvelope::Clock::time_point time) {
    return std::chrono::duration_cast<std::chrono::milliseconds>(time.time_since_epoch()).count();
}

RecordEnvelope::Clock::time_point fromMs(std::int64_t ms) {
    return RecordEnvelope::Clock::time_point(
        std::chrono::duration_cast<RecordEnvelope::Clock::duration>(std::chrono::milliseconds(ms)));
}

void appendBigEndian(QByteArray& out, std::int64_t value) {
    char bytes[8];
    qToBigEndian(value, bytes);
    out.append(bytes, 8);
}

std::int64_t readBigEndian(QByteArrayView bytes, qsizetype offset) {
    return qFromBigEndian<std::int64_t>(bytes.data() + offset);
}

} // namespace

RecordEnvelope::RecordEnvelope(security::PeerId owner, Clock::time_point issuedAt,
                               Clock::time_point expiresAt, QByteArray payload, QByteArray signature,
                               QByteArray credential)
    : owner_(owner), issuedAtMs_(toMs(issuedAt)), expiresAtMs_(toMs(expiresAt)), payload_(std::move(payload)),
      signature_(std::move(signature)), credential_(std::move(credential)) {}

RecordEnvelope RecordEnvelope::sign(const security::PeerIdentity& identity, QByteArrayView keyHash,
                                    Clock::time_point issuedAt, Clock::time_point expiresAt,
                                    QByteArray payload, QByteArray credential) {
    if (payload.size() > kMaxPayloadBytes)
        throw std::invalid_argument(QStringLiteral("a DHT record payload is at most %1 bytes, got %2")
                                        .arg(kMaxPayloadBytes)
                                        .arg(payload.size())
                                        .toStdString());
    if (credential.size() > kMaxCredentialBytes)
        throw std::invalid_argument(QStringLiteral("a DHT record credential is at most %1 bytes, got %2")
                                        .arg(kMaxCredentialBytes)
                                        .arg(credential.size())
                                        .toStdString());
    RecordEnvelope envelope(identity.id(), issuedAt, expiresAt, std::move(payload), {},
                            std::move(credential));
    envelope.signature_ = identity.sign(envelope.signedBytes(keyHash));
    return envelope;
}

std::optional<RecordEnvelope> RecordEnvelope::decode(QByteArrayView bytes) {
    if (bytes.size() < kHeaderSize + kSignatureSize || bytes.size() > kMaxEncodedSize ||
        bytes.first(4) != QByteArrayView(kMagic, 4))
        return std::nullopt;
    const std::int64_t issuedMs = readBigEndian(bytes, 36);
    const std::int64_t expiresMs = readBigEndian(bytes, 44);
    if (issuedMs < 0 || issuedMs > kLatestMs || expiresMs < 0 || expiresMs > kLatestMs)
        return std::nullopt;
    const qsizetype credentialSize = qFromBigEndian<quint16>(bytes.data() + 52);
    if (credentialSize > kMaxCredentialBytes || bytes.size() < kHeaderSize + credentialSize + kSignatureSize)
        return std::nullopt;
    const qsizetype payloadSize = bytes.size() - kHeaderSize - credentialSize - kSignatureSize;
    if (payloadSize > kMaxPayloadBytes)
        return std::nullopt;
    return RecordEnvelope(
        security::PeerId::fromBytes(bytes.sliced(4, security::PeerId::kSize)), fromMs(issuedMs),
        fromMs(expiresMs), bytes.sliced(kHeaderSize + credentialSize, payloadSize).toByteArray(),
        bytes.last(kSignatureSize).toByteArray(), bytes.sliced(kHeaderSize, credentialSize).toByteArray());
}

QByteArray RecordEnvelope::encode() const {
    QByteArray out;
    out.reserve(kHeaderSize + credential_.size() + payload_.size() + signature_.size());
    out.append(kMagic, 4);
    out.append(owner_.bytes());
    appendBigEndian(out, issuedAtMs_);
    appendBigEndian(out, expiresAtMs_);
    char size[2];
    qToBigEndian(static_cast<quint16>(credential_.size()), size);
    out.append(size, 2);
    out.append(credential_);
    out.append(payload_);
    out.append(signature_);
    return out;
}

QByteArray RecordEnvelope::signedBytes(QByteArrayView keyHash) const {
    QByteArray message(kSigningContext,
                       sizeof kSigningContext); // with its NUL: the context ends unambiguously
    message.append(keyHash);
    message.append(encode().chopped(signature_.size()));
    return message;
}

bool RecordEnvelope::hasValidSignature(QByteArrayView keyHash) const {
    return security::PeerIdentity::verify(owner_, signedBytes(keyHash), signature_);
}

RecordEnvelope::Clock::time_point RecordEnvelope::issuedAt() const {
    return fromMs(issuedAtMs_);
}

RecordEnvelope::Clock::time_point RecordEnvelope::expiresAt() const {
    return fromMs(expiresAtMs_);
}

} // namespace sahaj::dht
