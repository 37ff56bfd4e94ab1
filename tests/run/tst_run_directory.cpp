// The run directory: a list of runs signed by whoever keeps it, refused when anything about it does not
// verify, and never able to point the app at a file on the volunteer's disk.
#include "core/run/RunDirectory.h"
#include "core/security/PeerIdentity.h"
#include "tests/common/TestFiles.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace sahaj::run;
using sahaj::security::PeerIdentity;
using sahaj::test::errorOf;

namespace {

RunListing listing(const QString& title) {
    RunListing run;
    run.title = title;
    run.description =
        QStringLiteral("ALBERT for Bengali, trained on Wikipedia and OSCAR.\nJoin with any GPU.");
    run.organiser = QStringLiteral("Neuropark");
    run.organiserKey = QString(64, QLatin1Char('a'));
    run.join = QStringLiteral("https://example.org/runs/%1.join").arg(title);
    run.parameters = 18'000'000;
    run.downloadBytes = 1'500'000'000;
    return run;
}

QJsonObject listingJson(const RunListing& run) {
    return QJsonObject{{"title", run.title},
                       {"description", run.description},
                       {"organiser", run.organiser},
                       {"organiserKey", run.organiserKey},
                       {"join", run.join},
                       {"parameters", qint64(run.parameters)},
                       {"downloadBytes", qint64(run.downloadBytes)}};
}

// A directory file carrying `body` as its signed bytes, signed by `key`: for bodies sign() would refuse.
QByteArray directoryOf(const QByteArray& body, const PeerIdentity& key) {
    return QJsonDocument(QJsonObject{{"format", "sahaj-run-directory/1"},
                                     {"signer", key.id().toHex()},
                                     {"directory", QString::fromLatin1(body.toBase64())},
                                     {"signature", QString::fromLatin1(key.sign(body).toBase64())}})
        .toJson();
}

QByteArray bodyOf(const QJsonArray& runs) {
    return QJsonDocument(QJsonObject{{"issued", qint64(1700000000000)}, {"runs", runs}})
        .toJson(QJsonDocument::Compact);
}

} // namespace

class TestRunDirectory : public QObject {
    Q_OBJECT

    const PeerIdentity keeper_ = PeerIdentity::generate();

    QString refusal(const QByteArray& bytes) {
        return errorOf([&] { RunDirectory::fromBytes(bytes, "test", keeper_.id().toHex()); });
    }

private Q_SLOTS:
    void aSignedDirectoryRoundTrips() {
        RunListing second = listing("second");
        second.join = QStringLiteral("sahaj:join/eJwrSS0uAQAEXQHB");
        const RunDirectory signed_ =
            RunDirectory::sign({listing("sahajbert"), second}, 1700000000123, keeper_);
        const RunDirectory read =
            RunDirectory::fromBytes(signed_.toBytes(), "test", keeper_.id().toHex().toUpper());
        QCOMPARE(read.runs().size(), std::size_t(2));
        QVERIFY(read.runs()[0] == listing("sahajbert"));
        QVERIFY(read.runs()[1] == second);
        QCOMPARE(read.issuedMs(), qint64(1700000000123));
        QCOMPARE(read.signer(), keeper_.id().toHex());
    }

    // The volunteer sets the key next to the URL: a directory signed by anybody else is refused, even a
    // valid one, and so is a directory read without a key.
    void onlyTheKeySetIsTrusted() {
        const PeerIdentity other = PeerIdentity::generate();
        const QByteArray bytes = RunDirectory::sign({listing("x")}, 1, other).toBytes();
        QVERIFY(refusal(bytes).contains("not by the directory key set in the settings"));
        QVERIFY(errorOf([&] { RunDirectory::fromBytes(bytes, "test", QString()); }).contains("no valid key"));
    }

    void aChangedListingDoesNotVerify() {
        const QByteArray body = bodyOf({listingJson(listing("x"))});
        QJsonObject file = QJsonDocument::fromJson(directoryOf(body, keeper_)).object();
        QByteArray changed = body;
        changed.replace("Neuropark", "Neuroparq");
        file["directory"] = QString::fromLatin1(changed.toBase64());
        QVERIFY(refusal(QJsonDocument(file).toJson()).contains("signature does not verify"));
    }

    // What the signature covers is exactly what is read: no second encoding, no key nobody reads.
    void onlyTheCanonicalFormIsRead() {
        QByteArray spaced = bodyOf({listingJson(listing("x"))});
        spaced.replace("{\"issued\"", "{ \"issued\"");
        QVERIFY(refusal(directoryOf(spaced, keeper_)).contains("canonical form"));
        QJsonObject extra = listingJson(listing("x"));
        extra["mirror"] = "file:///etc/passwd";
        QVERIFY(refusal(directoryOf(bodyOf({extra}), keeper_)).contains("mirror"));
        QJsonObject file = QJsonDocument::fromJson(directoryOf(bodyOf({}), keeper_)).object();
        file["comment"] = "hi";
        QVERIFY(refusal(QJsonDocument(file).toJson()).contains("unknown key \"comment\""));
    }

    // Even a signed directory is checked in meaning: its texts go into labels, its links are joined.
    void everyListingIsCheckedInMeaning() {
        const auto refusedWith = [&](RunListing run, const QString& expected) {
            const QString signedRefusal = refusal(directoryOf(bodyOf({listingJson(run)}), keeper_));
            QVERIFY2(signedRefusal.contains(expected), qPrintable(signedRefusal));
            const QString signRefusal = errorOf([&] { RunDirectory::sign({run}, 1, keeper_); });
            QVERIFY2(signRefusal.contains(expected), qPrintable(signRefusal));
        };
        RunListing run = listing("x");
        run.join = QStringLiteral("/home/volunteer/.ssh/id_ed25519");
        refusedWith(run, "\"join\" must be a join link");
        run.join = QStringLiteral("file:///etc/passwd");
        refusedWith(run, "\"join\" must be a join link");
        run.join = QStringLiteral("http://203.0.113.5/run.join"); // plain http only on private addresses
        refusedWith(run, "\"join\" must be a join link");
        run = listing("x");
        run.title = QStringLiteral("Sahaj\u202Eevil");
        refusedWith(run, "control character");
        run.title = QStringLiteral("two\nlines");
        refusedWith(run, "control character");
        run.title = QString(RunDirectory::kMaxTitle + 1, QLatin1Char('t'));
        refusedWith(run, "longer than");
        run = listing("x");
        run.organiser = QStringLiteral("   ");
        refusedWith(run, "\"organiser\" is empty");
        run = listing("x");
        run.organiserKey = QString(64, QLatin1Char('A'));
        refusedWith(run, "\"organiserKey\"");
        run = listing("x");
        run.downloadBytes = -1;
        refusedWith(run, "cannot be negative");
    }

    void itsSizeIsBounded() {
        QJsonArray many;
        for (int i = 0; i <= RunDirectory::kMaxRuns; ++i)
            many.append(listingJson(listing(QString::number(i))));
        QVERIFY(refusal(directoryOf(bodyOf(many), keeper_)).contains("more than"));
        QVERIFY(refusal(QByteArray(RunDirectory::kMaxBytes + 1, ' ')).contains("more than"));
        QVERIFY(refusal("not json").contains("not a JSON object"));
        QVERIFY(
            refusal(QJsonDocument(QJsonObject{{"format", "sahaj-join/1"}}).toJson()).contains("\"format\""));
        const QByteArray noIssue =
            QJsonDocument(QJsonObject{{"runs", QJsonArray{}}}).toJson(QJsonDocument::Compact);
        QVERIFY(refusal(directoryOf(noIssue, keeper_)).contains("\"issued\""));
    }

    // The organiser's plain list, as sign-directory reads it: each entry checked, errors naming it.
    void thePlainListIsReadStrictly() {
        const QByteArray good =
            QJsonDocument(QJsonObject{{"runs", QJsonArray{listingJson(listing("a"))}}}).toJson();
        QCOMPARE(RunDirectory::listingsFromJson(good, "runs.json").size(), std::size_t(1));
        QJsonObject missing = listingJson(listing("a"));
        missing.remove("title");
        const QString error = errorOf([&] {
            RunDirectory::listingsFromJson(QJsonDocument(QJsonObject{{"runs", QJsonArray{missing}}}).toJson(),
                                           "runs.json");
        });
        QVERIFY2(error.contains("runs[0].title") && error.contains("runs.json"), qPrintable(error));
    }
};

QTEST_GUILESS_MAIN(TestRunDirectory)
#include "tst_run_directory.moc"
