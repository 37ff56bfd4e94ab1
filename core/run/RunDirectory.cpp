#include "core/run/RunDirectory.h"

#include "core/run/JoinFile.h"
#include "core/run/ManifestObjectReader.h"
#include "core/run/ManifestSyntax.h"
#include "core/security/PeerId.h"
#include "core/security/PeerIdentity.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <stdexcept>

namespace sahaj::run {

namespace {

[[noreturn]] void refuseDirectory(const QString& origin, const QString& why) {
    throw std::invalid_argument(
        QStringLiteral("run directory '%1' is refused: %2").arg(origin, why).toStdString());
}

// The canonical spelling of a key: lowercase, as PeerId::toHex writes it.
bool isKeyHex(const QString& text) {
    return security::PeerId::isHex(text) && text == text.toLower();
}

// Explicit bidirectional embeddings, overrides and isolates: they make a label read otherwise than its
// characters (a title ending "…exe.txt" shown as "…txt.exe"). The joiners Bengali needs stay allowed.
bool isBidiControl(QChar c) {
    const char16_t u = c.unicode();
    return (u >= 0x202A && u <= 0x202E) || (u >= 0x2066 && u <= 0x2069);
}

// A one-line text (`multiLine`: a paragraph) of 1..`maxLength` characters with no control character
// other than the newline a paragraph may hold: what a directory shows goes into labels and tool tips.
QString textProblem(const QString& text, qsizetype maxLength, bool multiLine) {
    if (text.trimmed().isEmpty())
        return QStringLiteral("is empty");
    if (text.size() > maxLength)
        return QStringLiteral("is longer than %1 characters").arg(maxLength);
    for (const QChar c : text)
        if ((c.category() == QChar::Other_Control && !(multiLine && c == QLatin1Char('\n'))) ||
            isBidiControl(c))
            return QStringLiteral("holds a control character (U+%1)")
                .arg(c.unicode(), 4, 16, QLatin1Char('0'));
    return {};
}

// The problem with `listing`, in meaning, as "field problem"; empty when it may be shown and joined.
QString listingProblem(const RunListing& listing) {
    const std::pair<const char*, QString> texts[] = {
        {"title", textProblem(listing.title, RunDirectory::kMaxTitle, false)},
        {"organiser", textProblem(listing.organiser, RunDirectory::kMaxOrganiser, false)},
        {"description", textProblem(listing.description, RunDirectory::kMaxDescription, true)},
    };
    for (const auto& [field, problem] : texts)
        if (!problem.isEmpty())
            return QStringLiteral("\"%1\" %2").arg(QLatin1String(field), problem);
    if (!isKeyHex(listing.organiserKey))
        return QStringLiteral("\"organiserKey\" must be 64 lowercase hexadecimal digits");
    if (listing.join.size() > RunDirectory::kMaxJoin)
        return QStringLiteral("\"join\" is longer than %1 characters").arg(RunDirectory::kMaxJoin);
    // A path would make the volunteer's app read a file of the directory's choosing.
    if (!JoinFile::isLink(listing.join) && !ManifestSyntax::isRemoteUrl(listing.join))
        return QStringLiteral("\"join\" must be a join link (%1…) or %2")
            .arg(QLatin1String(JoinFile::kLinkPrefix), ManifestSyntax::remoteUrlRule());
    if (listing.parameters < 0 || listing.downloadBytes < 0)
        return QStringLiteral("\"parameters\" and \"downloadBytes\" cannot be negative");
    return {};
}

QJsonObject listingJson(const RunListing& listing) {
    return QJsonObject{
        {"title", listing.title},
        {"description", listing.description},
        {"organiser", listing.organiser},
        {"organiserKey", listing.organiserKey},
        {"join", listing.join},
        {"parameters", qint64(listing.parameters)},
        {"downloadBytes", qint64(listing.downloadBytes)},
    };
}

// The listings of `array`, read strictly and checked; errors name the element ("runs[3].join").
std::vector<RunListing> readListings(const QJsonArray& array, const QString& origin) {
    if (array.size() > RunDirectory::kMaxRuns)
        refuseDirectory(origin, QStringLiteral("it lists more than %1 runs").arg(RunDirectory::kMaxRuns));
    std::vector<RunListing> runs;
    for (qsizetype i = 0; i < array.size(); ++i) {
        const QString path = QStringLiteral("runs[%1]").arg(i);
        RunListing listing;
        try {
            ManifestObjectReader read(ManifestObjectReader::toObject(array.at(i), path), path);
            listing.title = read.string("title");
            listing.description = read.string("description");
            listing.organiser = read.string("organiser");
            listing.organiserKey = read.string("organiserKey");
            listing.join = read.string("join");
            listing.parameters = read.integer("parameters", 0);
            listing.downloadBytes = read.integer("downloadBytes", 0);
            read.finish();
        } catch (const std::invalid_argument& e) {
            refuseDirectory(origin, QString::fromUtf8(e.what()));
        }
        if (const QString problem = listingProblem(listing); !problem.isEmpty())
            refuseDirectory(origin, path + QLatin1Char(' ') + problem);
        runs.push_back(std::move(listing));
    }
    return runs;
}

QJsonObject parseObject(const QByteArray& bytes, const QString& origin, const char* what) {
    if (bytes.size() > RunDirectory::kMaxBytes)
        refuseDirectory(origin, QStringLiteral("it has more than %1 bytes").arg(RunDirectory::kMaxBytes));
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(bytes, &error);
    if (error.error != QJsonParseError::NoError || !document.isObject())
        refuseDirectory(origin, QStringLiteral("%1 is not a JSON object").arg(QLatin1String(what)));
    return document.object();
}

QByteArray signedBytes(const std::vector<RunListing>& runs, std::int64_t issuedMs) {
    QJsonArray array;
    for (const RunListing& listing : runs)
        array.append(listingJson(listing));
    return QJsonDocument(QJsonObject{{"issued", qint64(issuedMs)}, {"runs", array}})
        .toJson(QJsonDocument::Compact);
}

QByteArray decodeDirectoryField(const QJsonValue& value, const QString& origin, const char* field) {
    const auto decoded =
        QByteArray::fromBase64Encoding(value.toString().toLatin1(), QByteArray::AbortOnBase64DecodingErrors);
    if (!value.isString() || !decoded)
        refuseDirectory(origin, QStringLiteral("\"%1\" must be a base64 string").arg(QLatin1String(field)));
    return *decoded;
}

} // namespace

RunDirectory::RunDirectory(std::vector<RunListing> runs, std::int64_t issuedMs, QString signer,
                           QByteArray signature)
    : runs_(std::move(runs)), issuedMs_(issuedMs), signer_(std::move(signer)),
      signature_(std::move(signature)) {}

RunDirectory RunDirectory::sign(std::vector<RunListing> runs, std::int64_t issuedMs,
                                const security::PeerIdentity& signer) {
    if (std::ssize(runs) > kMaxRuns)
        throw std::invalid_argument(
            QStringLiteral("a run directory lists at most %1 runs").arg(kMaxRuns).toStdString());
    for (std::size_t i = 0; i < runs.size(); ++i)
        if (const QString problem = listingProblem(runs[i]); !problem.isEmpty())
            throw std::invalid_argument(QStringLiteral("runs[%1] %2").arg(i).arg(problem).toStdString());
    if (issuedMs < 0)
        throw std::invalid_argument("a run directory's issue time cannot be negative");
    QByteArray signature = signer.sign(signedBytes(runs, issuedMs));
    return RunDirectory(std::move(runs), issuedMs, signer.id().toHex(), std::move(signature));
}

RunDirectory RunDirectory::fromBytes(const QByteArray& bytes, const QString& origin,
                                     const QString& expectedSigner) {
    if (!isKeyHex(expectedSigner.toLower()))
        refuseDirectory(origin,
                        QStringLiteral("no valid key is set for the run directory (64 hexadecimal digits)"));
    const QJsonObject json = parseObject(bytes, origin, "it");
    if (json.value("format").toString() != QLatin1String(kFormat))
        refuseDirectory(origin, QStringLiteral("\"format\" must be \"%1\"").arg(QLatin1String(kFormat)));
    for (auto it = json.begin(); it != json.end(); ++it)
        if (it.key() != "format" && it.key() != "signer" && it.key() != "directory" &&
            it.key() != "signature")
            refuseDirectory(origin, QStringLiteral("unknown key \"%1\"").arg(it.key().left(64)));
    const QString signer = json.value("signer").toString();
    if (signer != expectedSigner.toLower())
        refuseDirectory(
            origin, QStringLiteral("it is signed by %1, not by the directory key set in the settings (%2)")
                        .arg(signer.left(64), expectedSigner.toLower()));
    const QByteArray signed_ = decodeDirectoryField(json.value("directory"), origin, "directory");
    const QByteArray signature = decodeDirectoryField(json.value("signature"), origin, "signature");
    // Verified before the signed bytes are parsed: nobody but the signer chooses what the parser reads.
    if (!security::PeerIdentity::verify(security::PeerId::fromHex(signer), signed_, signature))
        refuseDirectory(origin, QStringLiteral("the signature does not verify"));

    const QJsonObject body = parseObject(signed_, origin, "the signed directory");
    std::int64_t issuedMs = 0;
    QJsonArray array;
    try {
        ManifestObjectReader read(body, QString());
        issuedMs = read.integer("issued", -1);
        array = read.array("runs");
        read.finish();
    } catch (const std::invalid_argument& e) {
        refuseDirectory(origin, QString::fromUtf8(e.what()));
    }
    if (issuedMs < 0)
        refuseDirectory(origin, QStringLiteral("\"issued\" must be a time (milliseconds since 1970)"));
    std::vector<RunListing> runs = readListings(array, origin);
    if (signedBytes(runs, issuedMs) != signed_)
        refuseDirectory(origin, QStringLiteral("the signed bytes are not the directory's canonical form"));
    return RunDirectory(std::move(runs), issuedMs, signer, signature);
}

std::vector<RunListing> RunDirectory::listingsFromJson(const QByteArray& bytes, const QString& origin) {
    const QJsonObject json = parseObject(bytes, origin, "it");
    QJsonArray array;
    try {
        ManifestObjectReader read(json, QString());
        array = read.array("runs");
        read.finish();
    } catch (const std::invalid_argument& e) {
        refuseDirectory(origin, QString::fromUtf8(e.what()));
    }
    return readListings(array, origin);
}

QByteArray RunDirectory::toBytes() const {
    const QJsonObject json{
        {"format", QLatin1String(kFormat)},
        {"signer", signer_},
        {"directory", QString::fromLatin1(signedBytes(runs_, issuedMs_).toBase64())},
        {"signature", QString::fromLatin1(signature_.toBase64())},
    };
    return QJsonDocument(json).toJson(QJsonDocument::Indented);
}

} // namespace sahaj::run
