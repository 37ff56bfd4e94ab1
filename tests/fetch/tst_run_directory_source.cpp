// The run directory downloaded from a real nginx on loopback: read and verified, refused when it is too
// large or signed by another key, and a clear error when the server does not have it.
#include "core/fetch/RunDirectorySource.h"
#include "core/security/PeerIdentity.h"
#include "tests/common/NginxServer.h"
#include "tests/common/TestFiles.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace sahaj;
using sahaj::test::errorOf;
using sahaj::test::NginxServer;

namespace {

void write(const QString& path, const QByteArray& bytes) {
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    QCOMPARE(file.write(bytes), bytes.size());
}

} // namespace

class TestRunDirectorySource : public QObject {
    Q_OBJECT

    QTemporaryDir served_;
    QTemporaryDir work_;
    std::unique_ptr<NginxServer> server_;
    const security::PeerIdentity keeper_ = security::PeerIdentity::generate();

private Q_SLOTS:
    void initTestCase() {
        QVERIFY2(NginxServer::available(), qPrintable(NginxServer::missingReason()));
        run::RunListing listing;
        listing.title = QStringLiteral("sahajBERT");
        listing.description = QStringLiteral("Bengali ALBERT");
        listing.organiser = QStringLiteral("Neuropark");
        listing.organiserKey = QString(64, QLatin1Char('b'));
        listing.join = QStringLiteral("https://example.org/sahajbert.join");
        write(QDir(served_.path()).filePath("runs.json"),
              run::RunDirectory::sign({listing}, 1, keeper_).toBytes());
        write(QDir(served_.path()).filePath("huge.json"), QByteArray(run::RunDirectory::kMaxBytes + 1, ' '));
        server_ = std::make_unique<NginxServer>(served_.path(), work_.path());
        QString error;
        QVERIFY2(server_->start(&error), qPrintable(error));
    }

    void theDirectoryIsDownloadedAndVerified() {
        const run::RunDirectory directory =
            fetch::RunDirectorySource::read(server_->url("runs.json"), keeper_.id().toHex());
        QCOMPARE(directory.runs().size(), std::size_t(1));
        QCOMPARE(directory.runs()[0].title, QStringLiteral("sahajBERT"));
        const QString other = security::PeerIdentity::generate().id().toHex();
        QVERIFY(errorOf([&] {
                    fetch::RunDirectorySource::read(server_->url("runs.json"), other);
                }).contains("not by the directory key"));
    }

    void whatCannotBeADirectoryIsRefused() {
        const QString key = keeper_.id().toHex();
        const QString missing =
            errorOf([&] { fetch::RunDirectorySource::read(server_->url("nope.json"), key); });
        QVERIFY2(missing.contains("could not be downloaded") && missing.contains("404"), qPrintable(missing));
        const QString huge =
            errorOf([&] { fetch::RunDirectorySource::read(server_->url("huge.json"), key); });
        QVERIFY2(huge.contains("larger than a run directory may be"), qPrintable(huge));
        // The directory's own address is a web address: never a file on this computer.
        const QString local = errorOf(
            [&] { fetch::RunDirectorySource::read(QDir(served_.path()).filePath("runs.json"), key); });
        QVERIFY2(local.contains("is not a run directory's address"), qPrintable(local));
    }
};

QTEST_GUILESS_MAIN(TestRunDirectorySource)
#include "tst_run_directory_source.moc"
