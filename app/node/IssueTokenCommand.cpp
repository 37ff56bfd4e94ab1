#include "app/node/IssueTokenCommand.h"

#include "app/node/CommandLine.h"
#include "app/node/UsageError.h"
#include "core/security/AccessToken.h"
#include "core/security/CurveKeyPair.h"
#include "core/security/PeerIdentity.h"
#include "core/security/PrivateKey.h"
#include "core/security/SecretFile.h"
#include "core/security/Username.h"

#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSaveFile>

#include <optional>
#include <stdexcept>

namespace sahaj::node {

namespace {

using security::AccessToken;
using security::CurveKeyPair;
using security::PeerId;
using security::PeerIdentity;

const QString kOrganiserKey = QStringLiteral("organiser-key");
const QString kRun = QStringLiteral("run");
const QString kPeer = QStringLiteral("peer");
const QString kPeerKey = QStringLiteral("peer-key");
const QString kCurveKey = QStringLiteral("curve-key");
const QString kUser = QStringLiteral("user");
const QString kRole = QStringLiteral("role");
const QString kValidSeconds = QStringLiteral("valid-seconds");
const QString kIssuedAt = QStringLiteral("issued-at");
const QString kOut = QStringLiteral("out");

const QString kDefaultUser = QStringLiteral("offline");

[[noreturn]] void usage(const QString& message) {
    throw UsageError(message.toStdString());
}

// The absolute path of the folder given for --`option`; a usage error unless it exists.
QString existingFolder(const QString& option, const QString& value) {
    const QFileInfo info(value);
    if (!info.exists())
        usage(QStringLiteral("--%1: no such folder '%2'").arg(option, value));
    if (!info.isDir())
        usage(QStringLiteral("--%1: '%2' is not a folder").arg(option, value));
    return info.absoluteFilePath();
}

// The key `Holder` keeps in `folder`, read under the same rules as every key file (owner-only, bounded,
// PEM) but never created: a missing file is the user's mistake, reported against --`option`.
template <typename Holder>
Holder existingKey(const QString& option, const QString& folder, const QString& fileKind) {
    const QString path = QDir(folder).filePath(QString::fromLatin1(Holder::kKeyFileName));
    const security::SecretFile file(path, fileKind, security::PrivateKey::kMaxPemBytes,
                                    security::SecretFile::Access::OwnerOnly);
    std::optional<QByteArray> pem = file.read();
    if (!pem)
        usage(QStringLiteral("--%1: %2 has no %3 %4 (keys are never created here)")
                  .arg(option, folder, fileKind, QString::fromLatin1(Holder::kKeyFileName)));
    try {
        Holder key = Holder::fromPem(*pem, QStringLiteral("%1 %2").arg(fileKind, path));
        pem->fill('\0'); // best effort: no copy of the secret left in freed memory
        return key;
    } catch (...) {
        pem->fill('\0');
        throw;
    }
}

// The 32 raw bytes of a key given as 64 hex digits for --`option`.
QByteArray hexKey(const QString& option, const QString& value) {
    static const QRegularExpression kHex(QStringLiteral("^[0-9A-Fa-f]{64}$"));
    if (!kHex.match(value).hasMatch())
        usage(QStringLiteral("--%1 must be 64 hex digits (a 32-byte key), got '%2'").arg(option, value));
    return QByteArray::fromHex(value.toLatin1());
}

AccessToken::Role roleValue(const QCommandLineParser& parser) {
    if (!parser.isSet(kRole))
        return AccessToken::Role::Node;
    const QString name = parser.value(kRole);
    for (const AccessToken::Role role :
         {AccessToken::Role::Node, AccessToken::Role::Client, AccessToken::Role::Aux})
        if (AccessToken::roleName(role) == name)
            return role;
    // A coordinator's token lets its holder admit others; such authority is not handed out from a shell.
    if (name == AccessToken::roleName(AccessToken::Role::Coordinator))
        usage(QStringLiteral("--role coordinator is not issued by hand (expected node, client or aux)"));
    usage(QStringLiteral("--role must be node, client or aux, got '%1'").arg(name));
}

// Whether `a` and `b` name one file: --out must never overwrite a key it was given to read.
bool sameFile(const QString& a, const QString& b) {
    const QString canonical = QFileInfo(a).canonicalFilePath();
    return !canonical.isEmpty() && canonical == QFileInfo(b).canonicalFilePath();
}

// The token file: replaced atomically, readable by its owner only from its first byte on.
void writeOwnerOnly(const QString& path, const QByteArray& bytes) {
    QSaveFile file(path);
    // QSaveFile gives a new file the umask's permissions; they are narrowed before anything is written.
    if (!file.open(QIODevice::WriteOnly) ||
        !file.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner) ||
        file.write(bytes) != bytes.size() || !file.commit())
        throw std::runtime_error(
            QStringLiteral("cannot write the token to %1: %2").arg(path, file.errorString()).toStdString());
}

// Everything the options say, checked before any key is read or any file written.
struct TokenRequest {
    QString organiserFolder;
    QString runId;
    QString peerFolder; // empty when the keys are given in hex
    QByteArray peerKey;
    QByteArray curveKey;
    QString user;
    AccessToken::Role role = AccessToken::Role::Node;
    qint64 issuedAt = 0;
    qint64 expiresAt = 0;
    QString out;

    static TokenRequest fromOptions(const QCommandLineParser& parser, qint64 now) {
        TokenRequest request;
        request.organiserFolder =
            existingFolder(kOrganiserKey, CommandLine::requiredValue(parser, kOrganiserKey));
        request.runId = CommandLine::requiredValue(parser, kRun);
        if (const qsizetype bytes = request.runId.toUtf8().size(); bytes > AccessToken::kMaxRunIdBytes)
            usage(QStringLiteral("--run is %1 bytes, over its limit of %2")
                      .arg(bytes)
                      .arg(AccessToken::kMaxRunIdBytes));
        request.readPeerOptions(parser);
        request.user = parser.isSet(kUser) ? parser.value(kUser) : kDefaultUser;
        if (const QString problem = security::Username::problem(request.user.toUtf8()); !problem.isEmpty())
            usage(QStringLiteral("--user: %1").arg(problem));
        request.role = roleValue(parser);
        const qint64 valid =
            CommandLine::integerValue(parser, kValidSeconds, IssueTokenCommand::kDefaultValidSeconds, 1,
                                      IssueTokenCommand::kMaxValidSeconds);
        request.issuedAt =
            CommandLine::integerValue(parser, kIssuedAt, now, 0, AccessToken::kMaxTimeSeconds - valid);
        request.expiresAt = request.issuedAt + valid;
        request.out = CommandLine::requiredValue(parser, kOut);
        const QFileInfo out(request.out);
        if (out.isDir())
            usage(QStringLiteral("--out: '%1' is a folder, not a file").arg(request.out));
        if (!out.absoluteDir().exists())
            usage(QStringLiteral("--out: the folder of '%1' does not exist").arg(request.out));
        return request;
    }

    // --peer DIR, or --peer-key HEX with --curve-key HEX: exactly one of the two forms.
    void readPeerOptions(const QCommandLineParser& parser) {
        const bool hexGiven = parser.isSet(kPeerKey) || parser.isSet(kCurveKey);
        if (parser.isSet(kPeer)) {
            if (hexGiven)
                usage(QStringLiteral(
                    "give the peer either as --peer DIR or as --peer-key and --curve-key, not both"));
            peerFolder = existingFolder(kPeer, CommandLine::requiredValue(parser, kPeer));
            return;
        }
        if (!hexGiven)
            usage(QStringLiteral("missing the peer: give --peer DIR, or --peer-key HEX and --curve-key HEX"));
        peerKey = hexKey(kPeerKey, CommandLine::requiredValue(parser, kPeerKey));
        curveKey = hexKey(kCurveKey, CommandLine::requiredValue(parser, kCurveKey));
    }

    // Refuses an --out that names one of the key files read: a typo must not destroy a key.
    void refuseOutOverKey() const {
        QStringList keys{QDir(organiserFolder).filePath(QString::fromLatin1(PeerIdentity::kKeyFileName))};
        if (!peerFolder.isEmpty())
            keys << QDir(peerFolder).filePath(QString::fromLatin1(PeerIdentity::kKeyFileName))
                 << QDir(peerFolder).filePath(QString::fromLatin1(CurveKeyPair::kKeyFileName));
        for (const QString& key : keys)
            if (sameFile(out, key))
                usage(QStringLiteral("--out '%1' is the key file %2; give another file").arg(out, key));
    }
};

} // namespace

QString IssueTokenCommand::description() {
    return QStringLiteral("  auth issue-token --organiser-key DIR --run RUN_ID --out FILE\n"
                          "                   (--peer DIR | --peer-key HEX --curve-key HEX) [--user NAME] "
                          "[--role ROLE]\n"
                          "                   [--valid-seconds N] [--issued-at UNIX_SECONDS]\n"
                          "      Signs an access token for one peer with the organiser's identity key in "
                          "DIR, without a\n"
                          "      coordinator, and writes it to FILE (readable by its owner only). The peer's "
                          "public keys\n"
                          "      come from its key folder (identity.key, curve.key) or are given in hex. "
                          "Valid %1 s from\n"
                          "      now unless told otherwise. No key is ever created.")
        .arg(kDefaultValidSeconds);
}

void IssueTokenCommand::addOptions(QCommandLineParser& parser) {
    parser.addOption(
        {kOrganiserKey, "issue-token: the organiser's key folder (its identity.key signs).", "DIR"});
    parser.addOption({kRun, "issue-token: the run id the token admits to.", "RUN_ID"});
    parser.addOption({kPeer, "issue-token: the peer's key folder (identity.key and curve.key).", "DIR"});
    parser.addOption({kPeerKey, "issue-token: the peer's Ed25519 identity key, 64 hex digits.", "HEX"});
    parser.addOption({kCurveKey, "issue-token: the peer's CURVE public key, 64 hex digits.", "HEX"});
    parser.addOption({kRole, "issue-token: node, client or aux (default node).", "ROLE"});
    parser.addOption({kValidSeconds,
                      QStringLiteral("issue-token: the token's lifetime in seconds (1 to %1, default %2).")
                          .arg(kMaxValidSeconds)
                          .arg(kDefaultValidSeconds),
                      "N"});
    parser.addOption(
        {kIssuedAt, "issue-token: the issue time, seconds since 1970 UTC (default now).", "UNIX_SECONDS"});
    parser.addOption({kOut, "issue-token: the file to write the token to.", "FILE"});
}

QStringList IssueTokenCommand::optionNames() {
    return {kOrganiserKey, kRun, kPeer, kPeerKey, kCurveKey, kUser, kRole, kValidSeconds, kIssuedAt, kOut};
}

void IssueTokenCommand::run(const QCommandLineParser& parser, QTextStream& out) {
    const qint64 now = QDateTime::currentSecsSinceEpoch();
    TokenRequest request = TokenRequest::fromOptions(parser, now);
    request.refuseOutOverKey();

    const auto organiser = existingKey<PeerIdentity>(kOrganiserKey, request.organiserFolder,
                                                     QStringLiteral("identity key file"));
    PeerId peer;
    if (request.peerFolder.isEmpty()) {
        peer = PeerId::fromBytes(request.peerKey);
    } else {
        peer = existingKey<PeerIdentity>(kPeer, request.peerFolder, QStringLiteral("identity key file")).id();
        request.curveKey =
            existingKey<CurveKeyPair>(kPeer, request.peerFolder, QStringLiteral("CURVE key file"))
                .publicKey();
    }
    const AccessToken token =
        AccessToken::issue(request.runId, request.user, peer, request.curveKey, request.role,
                           request.issuedAt, request.expiresAt, organiser);
    writeOwnerOnly(request.out, token.toBytes());

    const QString expiry = QDateTime::fromSecsSinceEpoch(token.expiresAt(), Qt::UTC).toString(Qt::ISODate);
    out << "issued a " << AccessToken::roleName(token.role()) << " token for peer " << peer.toHex()
        << " (user " << token.username() << ", run " << token.runId() << "), valid until " << expiry
        << (token.expiresAt() <= now ? " (already expired)" : "") << ", in " << request.out << "\n";
}

} // namespace sahaj::node
