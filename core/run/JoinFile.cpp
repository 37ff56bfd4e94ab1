#include "core/run/JoinFile.h"

#include "core/security/PeerId.h"
#include "core/security/PeerIdentity.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>

#include <stdexcept>

namespace sahaj::run {

namespace {

[[noreturn]] void refuse(const QString& origin, const QString& why) {
    throw std::invalid_argument(
        QStringLiteral("join file '%1' is refused: %2").arg(origin, why).toStdString());
}

QByteArray decodeBase64(const QJsonValue& value, const QString& origin, const char* field) {
    if (!value.isString())
        refuse(origin, QStringLiteral("\"%1\" must be a base64 string").arg(QLatin1String(field)));
    const auto decoded =
        QByteArray::fromBase64Encoding(value.toString().toLatin1(), QByteArray::AbortOnBase64DecodingErrors);
    if (!decoded)
        refuse(origin, QStringLiteral("\"%1\" is not valid base64").arg(QLatin1String(field)));
    return *decoded;
}

} // namespace

JoinFile::JoinFile(RunManifest manifest, QByteArray signature)
    : manifest_(std::move(manifest)), signature_(std::move(signature)) {}

JoinFile JoinFile::sign(RunManifest manifest, const security::PeerIdentity& organiser) {
    manifest.organiser = organiser.id().toHex();
    manifest.validate();
    QByteArray signature = organiser.sign(manifest.canonicalBytes());
    return JoinFile(std::move(manifest), std::move(signature));
}

JoinFile JoinFile::fromBytes(const QByteArray& bytes, const QString& origin,
                             const QString& expectedOrganiser) {
    if (bytes.size() > kMaxBytes)
        refuse(origin, QStringLiteral("it has more than %1 bytes").arg(kMaxBytes));
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(bytes, &error);
    if (error.error != QJsonParseError::NoError || !document.isObject())
        refuse(origin, QStringLiteral("it is not a JSON object"));
    const QJsonObject json = document.object();
    if (json.value("format").toString() != QLatin1String(kFormat))
        refuse(origin, QStringLiteral("\"format\" must be \"%1\"").arg(QLatin1String(kFormat)));
    for (auto it = json.begin(); it != json.end(); ++it)
        if (it.key() != "format" && it.key() != "manifest" && it.key() != "signature")
            refuse(origin, QStringLiteral("unknown key \"%1\"").arg(it.key().left(64)));
    const QByteArray signed_ = decodeBase64(json.value("manifest"), origin, "manifest");
    const QByteArray signature = decodeBase64(json.value("signature"), origin, "signature");

    RunManifest manifest;
    try {
        manifest = RunManifest::fromBytes(signed_, origin + " (manifest)");
    } catch (const std::invalid_argument& e) {
        refuse(origin, QString::fromUtf8(e.what()));
    }
    if (manifest.organiser.isEmpty())
        refuse(origin, QStringLiteral("the manifest names no organiser"));
    if (!expectedOrganiser.isEmpty() && manifest.organiser != expectedOrganiser.toLower())
        refuse(origin, QStringLiteral("it is signed by organiser %1, not by the expected %2")
                           .arg(manifest.organiser, expectedOrganiser));
    const security::PeerId organiser = security::PeerId::fromHex(manifest.organiser);
    if (!security::PeerIdentity::verify(organiser, signed_, signature))
        refuse(origin, QStringLiteral("the organiser's signature does not verify"));
    // What was signed must be exactly what was read: otherwise keys the reader skipped or a different
    // encoding of a number would ride along under a valid signature.
    if (manifest.canonicalBytes() != signed_)
        refuse(origin, QStringLiteral("the signed bytes are not the manifest's canonical form"));
    return JoinFile(std::move(manifest), signature);
}

bool JoinFile::isLink(const QString& text) {
    return text.startsWith(QLatin1String(kLinkPrefix));
}

bool JoinFile::looksLikeJoinFile(const QByteArray& bytes) {
    const QJsonDocument document = QJsonDocument::fromJson(bytes);
    return document.isObject() && document.object().value("format").toString() == QLatin1String(kFormat);
}

JoinFile JoinFile::fromLink(const QString& link, const QString& expectedOrganiser) {
    const QString origin = QStringLiteral("(join link)");
    if (!isLink(link))
        refuse(origin, QStringLiteral("a join link starts with \"%1\"").arg(QLatin1String(kLinkPrefix)));
    if (link.size() > kMaxBytes)
        refuse(origin, QStringLiteral("it is longer than %1 characters").arg(kMaxBytes));
    const auto decoded =
        QByteArray::fromBase64Encoding(link.mid(qsizetype(qstrlen(kLinkPrefix))).toLatin1(),
                                       QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals |
                                           QByteArray::AbortOnBase64DecodingErrors);
    if (!decoded || decoded.decoded.size() < 4)
        refuse(origin, QStringLiteral("it is not valid base64url"));
    // qUncompress allocates the size the data claims: check the claim before trusting it.
    const QByteArray& packed = *decoded;
    const quint32 claimed = (quint32(quint8(packed[0])) << 24) | (quint32(quint8(packed[1])) << 16) |
                            (quint32(quint8(packed[2])) << 8) | quint32(quint8(packed[3]));
    if (claimed > quint32(kMaxBytes))
        refuse(origin, QStringLiteral("it unpacks to more than %1 bytes").arg(kMaxBytes));
    const QByteArray bytes = qUncompress(packed);
    if (bytes.isEmpty())
        refuse(origin, QStringLiteral("its data does not unpack"));
    return fromBytes(bytes, origin, expectedOrganiser);
}

QString JoinFile::problemWithFile(const QString& path, const QByteArray& bytes, bool signedOnly) {
    const QString whereFrom =
        QStringLiteral("a run is joined with the join file or join link its organiser gives volunteers");
    if (bytes.isEmpty())
        return QStringLiteral("'%1' is empty: it is not a join file (%2)").arg(path, whereFrom);
    if (bytes.size() > kMaxBytes)
        return QStringLiteral("'%1' is larger than any join file (%2 KiB at most): it is not one (%3)")
            .arg(path)
            .arg(kMaxBytes / 1024)
            .arg(whereFrom);
    const QJsonDocument document = QJsonDocument::fromJson(bytes);
    if (document.isObject() && document.object().value("format").toString() == QLatin1String(kFormat))
        return {}; // looksLikeJoinFile, without parsing again
    if (!document.isObject())
        return QStringLiteral(
                   "'%1' is not a join file: a join file is a short JSON text, and this is %2 (%3)")
            .arg(path,
                 QString::fromUtf8(bytes).toUtf8() == bytes ? QStringLiteral("other text")
                                                            : QStringLiteral("not text at all"),
                 whereFrom);
    const QJsonObject json = document.object();
    if (json.value("format").toString() == QLatin1String(RunManifest::kFormat)) {
        if (!signedOnly)
            return {};
        return QStringLiteral("'%1' is a run manifest, which nobody signed: %2 (organisers: sahaj-node "
                              "run-init wrote the join file beside it, %3)")
            .arg(path, whereFrom, pathBeside(path));
    }
    if (json.contains("format"))
        return QStringLiteral("'%1' is of the format \"%2\", not a join file (\"%3\"): %4; a newer Sahaj may "
                              "read it")
            .arg(path, json.value("format").toString().left(40), QLatin1String(kFormat), whereFrom);
    return QStringLiteral("'%1' is JSON of another kind, not a join file (%2)").arg(path, whereFrom);
}

RunManifest JoinFile::readRun(const QString& linkOrPath, bool signedOnly, const QString& expectedOrganiser) {
    if (isLink(linkOrPath))
        return fromLink(linkOrPath, expectedOrganiser).manifest();
    const QFileInfo info(linkOrPath);
    if (!info.exists())
        throw std::runtime_error(QStringLiteral("'%1' is neither a join link (it starts with \"%2\") nor a "
                                                "file that exists")
                                     .arg(linkOrPath, QLatin1String(kLinkPrefix))
                                     .toStdString());
    if (info.isDir())
        throw std::runtime_error(
            QStringLiteral("'%1' is a folder: choose the join file in it").arg(linkOrPath).toStdString());
    QFile file(linkOrPath);
    if (!file.open(QIODevice::ReadOnly))
        throw std::runtime_error(
            QStringLiteral("cannot read '%1': %2").arg(linkOrPath, file.errorString()).toStdString());
    const QByteArray bytes = file.read(kMaxBytes + 1);
    if (bytes.size() <= kMaxBytes && looksLikeJoinFile(bytes))
        return fromBytes(bytes, linkOrPath, expectedOrganiser).manifest();
    if (const QString problem = problemWithFile(linkOrPath, bytes, signedOnly); !problem.isEmpty())
        throw std::invalid_argument(problem.toStdString());
    RunManifest manifest = RunManifest::fromBytes(bytes, linkOrPath);
    if (!expectedOrganiser.isEmpty() && manifest.organiser != expectedOrganiser.toLower())
        throw std::invalid_argument(QStringLiteral("'%1' names organiser '%2', not the expected %3")
                                        .arg(linkOrPath, manifest.organiser, expectedOrganiser)
                                        .toStdString());
    return manifest;
}

QString JoinFile::pathBeside(const QString& manifestPath) {
    const QFileInfo info(manifestPath);
    return info.dir().filePath(info.completeBaseName() + ".join");
}

QByteArray JoinFile::toBytes() const {
    const QJsonObject json{
        {"format", QLatin1String(kFormat)},
        {"manifest", QString::fromLatin1(manifest_.canonicalBytes().toBase64())},
        {"signature", QString::fromLatin1(signature_.toBase64())},
    };
    return QJsonDocument(json).toJson(QJsonDocument::Indented);
}

QString JoinFile::toLink() const {
    const QByteArray compact = QJsonDocument::fromJson(toBytes()).toJson(QJsonDocument::Compact);
    return QLatin1String(kLinkPrefix) +
           QString::fromLatin1(qCompress(compact, 9)
                                   .toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals));
}

void JoinFile::saveFile(const QString& path) const {
    const QByteArray bytes = toBytes();
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit())
        throw std::runtime_error(
            QStringLiteral("cannot write join file '%1': %2").arg(path, file.errorString()).toStdString());
}

} // namespace sahaj::run
