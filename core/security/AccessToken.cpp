#include "core/security/AccessToken.h"

#include "core/security/PeerIdentity.h"
#include "core/security/SignedText.h"
#include "core/security/Username.h"

#include <QStringDecoder>
#include <QtEndian>

#include <stdexcept>
#include <utility>

namespace sahaj::security {

namespace {

constexpr QByteArrayView kMagic = "sahaj-token-v1";
constexpr qsizetype kCurveKeyBytes = 32;
constexpr qsizetype kTimeBytes = 8;

constexpr const char* kParsing = "malformed access token";
constexpr const char* kIssuing = "cannot issue an access token";

[[noreturn]] void refuse(const char* context, const QString& problem) {
    throw std::invalid_argument(QStringLiteral("%1: %2").arg(QLatin1String(context), problem).toStdString());
}

[[noreturn]] void malformed(const QString& problem) {
    refuse(kParsing, problem);
}

QByteArray timeBytes(qint64 seconds) {
    QByteArray bytes(kTimeBytes, Qt::Uninitialized);
    qToBigEndian(seconds, bytes.data());
    return bytes;
}

bool isUtf8(QByteArrayView bytes) {
    QStringDecoder decoder(QStringDecoder::Utf8, QStringDecoder::Flag::Stateless);
    const QString text = decoder.decode(bytes);
    return !decoder.hasError();
}

// Reads the length-prefixed fields in order, refusing a length over the field's limit before reading it.
class FieldReader {
public:
    explicit FieldReader(QByteArrayView bytes) : rest_(bytes) {}

    // A field of at most `maxBytes` (exactly `maxBytes` when `exact`).
    QByteArrayView next(const char* name, qsizetype maxBytes, bool exact) {
        if (rest_.size() < 4)
            malformed(QStringLiteral("truncated in the length of the %1 field").arg(QLatin1String(name)));
        const quint32 length = qFromBigEndian<quint32>(rest_.data());
        rest_ = rest_.sliced(4);
        if (exact && length != static_cast<quint32>(maxBytes))
            malformed(QStringLiteral("the %1 field is %2 bytes, must be %3")
                          .arg(QLatin1String(name))
                          .arg(length)
                          .arg(maxBytes));
        if (length > static_cast<quint32>(maxBytes))
            malformed(QStringLiteral("the %1 field is %2 bytes, over its limit of %3")
                          .arg(QLatin1String(name))
                          .arg(length)
                          .arg(maxBytes));
        if (rest_.size() < static_cast<qsizetype>(length))
            malformed(QStringLiteral("truncated in the %1 field (%2 bytes announced, %3 left)")
                          .arg(QLatin1String(name))
                          .arg(length)
                          .arg(rest_.size()));
        const QByteArrayView field = rest_.first(length);
        rest_ = rest_.sliced(length);
        return field;
    }

    QByteArrayView rest() const { return rest_; }

private:
    QByteArrayView rest_;
};

} // namespace

AccessToken AccessToken::issue(const QString& runId, const QString& username, const PeerId& peer,
                               QByteArrayView curvePublicKey, Role role, qint64 issuedAt, qint64 expiresAt,
                               const PeerIdentity& organiser) {
    AccessToken token;
    token.runId_ = runId;
    token.username_ = username;
    token.peer_ = peer;
    token.curvePublicKey_ = curvePublicKey.toByteArray();
    token.role_ = role;
    token.issuedAt_ = issuedAt;
    token.expiresAt_ = expiresAt;
    token.checkFields(kIssuing);
    token.signature_ = organiser.sign(token.signedBytes());
    return token;
}

void AccessToken::checkFields(const char* context) const {
    const QByteArray run = runId_.toUtf8();
    if (run.isEmpty())
        refuse(context, QStringLiteral("the run id is empty"));
    if (run.size() > kMaxRunIdBytes)
        refuse(context, QStringLiteral("the run id is %1 bytes, over its limit of %2")
                            .arg(run.size())
                            .arg(kMaxRunIdBytes));
    if (const QString problem = Username::problem(username_.toUtf8()); !problem.isEmpty())
        refuse(context, problem);
    if (curvePublicKey_.size() != kCurveKeyBytes)
        refuse(context, QStringLiteral("the CURVE key is %1 bytes, must be %2")
                            .arg(curvePublicKey_.size())
                            .arg(kCurveKeyBytes));
    if (static_cast<std::uint8_t>(role_) > static_cast<std::uint8_t>(Role::Coordinator))
        refuse(context, QStringLiteral("bad role %1 (0 node, 1 client, 2 aux, 3 coordinator)")
                            .arg(static_cast<unsigned>(role_)));
    for (const auto& [name, value] : {std::pair{"issued-at", issuedAt_}, std::pair{"expires-at", expiresAt_}})
        if (value < 0 || value > kMaxTimeSeconds)
            refuse(context, QStringLiteral("%1 %2 is outside [0, %3]")
                                .arg(QLatin1String(name))
                                .arg(value)
                                .arg(kMaxTimeSeconds));
    if (expiresAt_ <= issuedAt_)
        refuse(context,
               QStringLiteral("expires-at %1 is not after issued-at %2").arg(expiresAt_).arg(issuedAt_));
}

QByteArray AccessToken::signedBytes() const {
    QByteArray out;
    out.reserve(kMaxBytes);
    out.append(kMagic);
    SignedText::appendField(out, runId_.toUtf8());
    SignedText::appendField(out, username_.toUtf8());
    SignedText::appendField(out, peer_.bytes());
    SignedText::appendField(out, curvePublicKey_);
    const char role = static_cast<char>(role_);
    SignedText::appendField(out, QByteArrayView(&role, 1));
    SignedText::appendField(out, timeBytes(issuedAt_));
    SignedText::appendField(out, timeBytes(expiresAt_));
    return out;
}

QByteArray AccessToken::toBytes() const {
    return signedBytes() + signature_;
}

AccessToken AccessToken::fromBytes(QByteArrayView bytes) {
    if (bytes.size() > kMaxBytes)
        malformed(QStringLiteral("%1 bytes, more than the %2 allowed").arg(bytes.size()).arg(kMaxBytes));
    if (bytes.size() < kMagic.size() && kMagic.startsWith(bytes))
        malformed(QStringLiteral("truncated in the magic"));
    if (!bytes.startsWith(kMagic))
        malformed(QStringLiteral("wrong magic (expected \"%1\")").arg(QLatin1String(kMagic)));

    FieldReader reader(bytes.sliced(kMagic.size()));
    const QByteArrayView run = reader.next("run id", kMaxRunIdBytes, false);
    const QByteArrayView user = reader.next("user name", Username::kMaxBytes, false);
    const QByteArrayView peer = reader.next("peer key", PeerId::kSize, true);
    const QByteArrayView curve = reader.next("CURVE key", kCurveKeyBytes, true);
    const QByteArrayView role = reader.next("role", 1, true);
    const QByteArrayView issued = reader.next("issued-at", kTimeBytes, true);
    const QByteArrayView expires = reader.next("expires-at", kTimeBytes, true);
    const QByteArrayView rest = reader.rest();
    if (rest.size() < PeerIdentity::kSignatureSize)
        malformed(QStringLiteral("truncated in the signature (%1 bytes, %2 expected)")
                      .arg(rest.size())
                      .arg(PeerIdentity::kSignatureSize));
    if (rest.size() > PeerIdentity::kSignatureSize)
        malformed(QStringLiteral("%1 trailing bytes after the signature")
                      .arg(rest.size() - PeerIdentity::kSignatureSize));

    // Checked on the bytes: decoding would turn invalid UTF-8 into U+FFFD and hide it.
    if (!isUtf8(run))
        malformed(QStringLiteral("the run id is not UTF-8"));
    if (const QString problem = Username::problem(user); !problem.isEmpty())
        malformed(problem);
    AccessToken token;
    token.runId_ = QString::fromUtf8(run);
    token.username_ = QString::fromLatin1(user);
    token.peer_ = PeerId::fromBytes(peer);
    token.curvePublicKey_ = curve.toByteArray();
    token.role_ = static_cast<Role>(static_cast<std::uint8_t>(role.front()));
    token.issuedAt_ = qFromBigEndian<qint64>(issued.data());
    token.expiresAt_ = qFromBigEndian<qint64>(expires.data());
    token.signature_ = rest.toByteArray();
    token.checkFields(kParsing);
    return token;
}

QString AccessToken::check(const PeerId& organiser, const QString& runId, qint64 nowSeconds) const {
    // The signature first: nothing else in an unauthenticated token is worth reporting.
    if (!PeerIdentity::verify(organiser, signedBytes(), signature_))
        return QStringLiteral("bad signature: the token is not signed by the organiser %1")
            .arg(organiser.shortHex());
    if (runId_ != runId)
        return QStringLiteral("the token is for run '%1', not for run '%2'").arg(runId_, runId);
    return checkTime(nowSeconds);
}

QString AccessToken::checkTime(qint64 nowSeconds) const {
    // The times are bounded by kMaxTimeSeconds, so these sums cannot overflow whatever nowSeconds is.
    if (nowSeconds < issuedAt_ - kClockSkewSeconds)
        return QStringLiteral("the token is not valid yet: issued at %1, now %2 (clocks %3 s apart at most)")
            .arg(issuedAt_)
            .arg(nowSeconds)
            .arg(kClockSkewSeconds);
    if (nowSeconds >= expiresAt_ + kClockSkewSeconds)
        return QStringLiteral("the token expired at %1, now %2").arg(expiresAt_).arg(nowSeconds);
    return {};
}

bool AccessToken::needsRefresh(qint64 nowSeconds) const {
    if (nowSeconds >= expiresAt_)
        return true;
    if (nowSeconds <= issuedAt_)
        return false;
    // Both differences are within [0, kMaxTimeSeconds] here; three times that fits in 64 bits.
    return 3 * (expiresAt_ - nowSeconds) < expiresAt_ - issuedAt_;
}

QString AccessToken::roleName(Role role) {
    switch (role) {
    case Role::Node:
        return QStringLiteral("node");
    case Role::Client:
        return QStringLiteral("client");
    case Role::Aux:
        return QStringLiteral("aux");
    case Role::Coordinator:
        return QStringLiteral("coordinator");
    }
    return QStringLiteral("role %1").arg(static_cast<unsigned>(role));
}

} // namespace sahaj::security
