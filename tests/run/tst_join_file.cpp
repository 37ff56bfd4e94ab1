// The join file and the join link: a manifest signed by its organiser, refused when anything about it
// does not verify.
#include "core/run/JoinFile.h"
#include "core/security/PeerIdentity.h"
#include "tests/common/SampleManifest.h"
#include "tests/common/TestFiles.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace sahaj::run;
using sahaj::security::PeerIdentity;
using sahaj::test::errorOf;

namespace {

RunManifest manifest() {
    return sahaj::test::sampleManifest(QStringLiteral("bn-join-1"), QStringLiteral("127.0.0.1:4600"));
}

// A join file whose manifest is `bytes`, signed by `key`.
QByteArray joinFileOf(const QByteArray& bytes, const PeerIdentity& key) {
    return QJsonDocument(QJsonObject{{"format", "sahaj-join/1"},
                                     {"manifest", QString::fromLatin1(bytes.toBase64())},
                                     {"signature", QString::fromLatin1(key.sign(bytes).toBase64())}})
        .toJson();
}

} // namespace

class TestJoinFile : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void fileAndLinkRoundTrip() {
        const PeerIdentity organiser = PeerIdentity::generate();
        const JoinFile join = JoinFile::sign(manifest(), organiser);
        QCOMPARE(join.manifest().organiser, organiser.id().toHex());

        const JoinFile fromFile = JoinFile::fromBytes(join.toBytes(), "test");
        QCOMPARE(fromFile.manifest(), join.manifest());
        QCOMPARE(fromFile.manifest().sha256Hex(), join.manifest().sha256Hex());
        const JoinFile fromLink = JoinFile::fromLink(join.toLink(), organiser.id().toHex());
        QCOMPARE(fromLink.manifest(), join.manifest());
        QVERIFY(JoinFile::isLink(join.toLink()));
        QVERIFY(join.toLink().size() < 4096); // short enough to paste or to put in a QR code
    }

    void everyTamperingIsRefused() {
        const PeerIdentity organiser = PeerIdentity::generate();
        const JoinFile join = JoinFile::sign(manifest(), organiser);
        const QByteArray bytes = join.manifest().canonicalBytes();

        // One field changed after signing: the signature no longer verifies.
        QByteArray changed = bytes;
        changed.replace("127.0.0.1:4600", "127.0.0.1:4666");
        QVERIFY(errorOf([&] {
                    JoinFile::fromBytes(
                        QJsonDocument(
                            QJsonObject{{"format", "sahaj-join/1"},
                                        {"manifest", QString::fromLatin1(changed.toBase64())},
                                        {"signature", QString::fromLatin1(join.signature().toBase64())}})
                            .toJson(),
                        "t");
                }).contains("signature does not verify"));
        // Re-signed by somebody else who also swapped the organiser: fine alone, refused when pinned.
        const PeerIdentity mallory = PeerIdentity::generate();
        const JoinFile forged = JoinFile::sign(join.manifest(), mallory);
        QVERIFY(JoinFile::fromBytes(forged.toBytes(), "t").manifest().organiser == mallory.id().toHex());
        QVERIFY(errorOf([&] {
                    JoinFile::fromBytes(forged.toBytes(), "t", organiser.id().toHex());
                }).contains("not by the expected"));
        // Signed by somebody else while naming the organiser: the signature does not verify.
        QVERIFY(errorOf([&] {
                    JoinFile::fromBytes(joinFileOf(bytes, mallory), "t");
                }).contains("signature does not verify"));
        // Validly signed bytes that are not the canonical form (whitespace): refused.
        const QByteArray spaced = QJsonDocument::fromJson(bytes).toJson(QJsonDocument::Indented);
        QVERIFY(errorOf([&] {
                    JoinFile::fromBytes(joinFileOf(spaced, organiser), "t");
                }).contains("canonical form"));
        // A validly signed manifest with a field out of range: the field's own message.
        QByteArray badField = bytes;
        badField.replace("\"sequence_length\":64", "\"sequence_length\":1");
        QVERIFY(errorOf([&] {
                    JoinFile::fromBytes(joinFileOf(badField, organiser), "t");
                }).contains("sequence_length"));
        // A manifest naming no organiser, even if signed.
        RunManifest anonymous = manifest();
        QVERIFY(errorOf([&] {
                    JoinFile::fromBytes(joinFileOf(anonymous.canonicalBytes(), organiser), "t");
                }).contains("names no organiser"));
    }

    void malformedFilesAndLinksAreRefused() {
        const PeerIdentity organiser = PeerIdentity::generate();
        const JoinFile join = JoinFile::sign(manifest(), organiser);
        QJsonObject json = QJsonDocument::fromJson(join.toBytes()).object();
        json.insert("extra", 1);
        QVERIFY(
            errorOf([&] { JoinFile::fromBytes(QJsonDocument(json).toJson(), "t"); }).contains("unknown key"));
        json.remove("extra");
        json.insert("signature", "***");
        QVERIFY(errorOf([&] {
                    JoinFile::fromBytes(QJsonDocument(json).toJson(), "t");
                }).contains("not valid base64"));
        QVERIFY(errorOf([&] { JoinFile::fromBytes("[1, 2]", "t"); }).contains("not a JSON object"));
        QVERIFY(errorOf([&] {
                    JoinFile::fromBytes(QByteArray(JoinFile::kMaxBytes + 1, ' '), "t");
                }).contains("more than"));
        QVERIFY(errorOf([&] { JoinFile::fromLink("sahaj:join/@@@"); }).contains("base64url"));
        QVERIFY(errorOf([&] { JoinFile::fromLink("https://example.org"); }).contains("starts with"));
        // A link that claims to unpack to 2 GiB is refused before anything is allocated.
        const QByteArray bomb = QByteArray("\x7f\xff\xff\xff", 4) + QByteArray(16, 'x');
        QVERIFY(errorOf([&] {
                    JoinFile::fromLink(QLatin1String(JoinFile::kLinkPrefix) +
                                       QString::fromLatin1(bomb.toBase64(QByteArray::Base64UrlEncoding |
                                                                         QByteArray::OmitTrailingEquals)));
                }).contains("unpacks to more than"));
    }

    void volunteersReadOnlySignedRuns() {
        QTemporaryDir dir;
        const PeerIdentity organiser = PeerIdentity::generate();
        const JoinFile join = JoinFile::sign(manifest(), organiser);
        const QString plain = dir.filePath("run.json");
        join.manifest().saveFile(plain);
        const QString joinPath = JoinFile::pathBeside(plain);
        QCOMPARE(joinPath, dir.filePath("run.join"));
        join.saveFile(joinPath);

        QCOMPARE(JoinFile::readRun(joinPath, true), join.manifest());
        QCOMPARE(JoinFile::readRun(join.toLink(), true), join.manifest());
        QCOMPARE(JoinFile::readRun(plain, false), join.manifest()); // the organiser's coordinator
        QVERIFY(
            errorOf([&] { JoinFile::readRun(plain, true); }).contains("a run manifest, which nobody signed"));
        QVERIFY(errorOf([&] {
                    JoinFile::readRun(plain, false, PeerIdentity::generate().id().toHex());
                }).contains("not the expected"));
        QVERIFY(errorOf([&] {
                    JoinFile::readRun(dir.filePath("absent.join"), true);
                }).contains("neither a join link"));
    }

    // What a volunteer may pick instead of a join file: each gets its own sentence, none the organiser's
    // "plain manifest" one (before, all of these were called a manifest nobody signed).
    void eachKindOfBadJoinFileIsNamed() {
        QTemporaryDir dir;
        const auto write = [&](const QString& name, const QByteArray& bytes) {
            QFile file(dir.filePath(name));
            if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size())
                qFatal("cannot write %s", qPrintable(name));
            return file.fileName();
        };
        QByteArray random(4096, '\0');
        for (qsizetype i = 0; i < random.size(); ++i)
            random[i] = char((i * 7919 + 13) % 251 + (i % 3 == 0 ? 128 : 0));
        const std::vector<std::pair<QString, QString>> cases = {
            {write("empty.join", {}), "is empty"},
            {write("random.join", random), "not text at all"},
            {write("big.join", QByteArray(10 * 1024 * 1024, 'a')), "larger than any join file"},
            {write("note.txt", "hello\n"), "other text"},
            {write("other.json", R"({"name": "x"})"), "JSON of another kind"},
            {write("future.join", R"({"format": "sahaj-join/9"})"), "of the format \"sahaj-join/9\""},
            {QStringLiteral("hello"), "neither a join link"},
            {dir.path(), "is a folder"},
        };
        for (const auto& [path, expected] : cases) {
            const QString error = errorOf([&] { JoinFile::readRun(path, true); });
            QVERIFY2(error.contains(expected), qPrintable(path + ": " + error));
            QVERIFY2(!error.contains("manifest"), qPrintable(path + ": " + error));
        }
    }
};

QTEST_GUILESS_MAIN(TestJoinFile)
#include "tst_join_file.moc"
