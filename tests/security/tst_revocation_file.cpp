// The organiser's revocations file: peer ids with comments, each mistake named by its line, bounded, read
// again as it changes, and a broken edit never un-revokes anyone.
#include "core/security/PeerIdentity.h"
#include "core/security/RevocationFile.h"
#include "core/security/RevokedPeers.h"
#include "tests/common/TestFiles.h"

#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

using namespace sahaj::security;
using sahaj::test::errorOf;

namespace {

const QString kPath = QStringLiteral("revoked.txt");

QByteArray idLine(const PeerId& peer, const QByteArray& comment = {}) {
    return peer.toHex().toLatin1() + comment + '\n';
}

} // namespace

class TestRevocationFile : public QObject {
    Q_OBJECT

    const PeerId a_ = PeerIdentity::generate().id();
    const PeerId b_ = PeerIdentity::generate().id();

    // Replaces the file and moves its time on, as an edit a second later would.
    static void rewrite(const QString& file, const QByteArray& text) {
        const QDateTime before = QFileInfo(file).lastModified();
        QFile out(file);
        QVERIFY(out.open(QIODevice::WriteOnly | QIODevice::Truncate));
        out.write(text);
        out.close();
        if (before.isValid()) {
            QVERIFY(out.open(QIODevice::Append));
            QVERIFY(out.setFileTime(before.addSecs(2), QFileDevice::FileModificationTime));
        }
    }

private Q_SLOTS:
    void idsCommentsAndBlankLines() {
        const QByteArray text = "# revoked by the organiser\n\n" + idLine(a_, "  # spammed the run") + "   " +
                                idLine(b_).toUpper();
        QCOMPARE(RevocationFile::parse(text, kPath), (std::set<PeerId>{a_, b_}));
        QVERIFY(RevocationFile::parse("", kPath).empty());
    }

    void eachMistakeIsNamedByItsLine() {
        QCOMPARE(errorOf([&] { RevocationFile::parse(idLine(a_) + "deadbeef\n", kPath); }),
                 QString("revocations revoked.txt line 2: not a peer id (64 hex digits, then an optional # "
                         "comment)"));
        QVERIFY(errorOf([&] {
                    RevocationFile::parse(idLine(a_) + idLine(b_) + idLine(a_), kPath);
                }).startsWith("revocations revoked.txt line 3: peer " + a_.shortHex()));
        QByteArray many;
        for (int i = 0; i <= RevocationFile::kMaxPeers; ++i)
            many += idLine(PeerIdentity::generate().id());
        QVERIFY(errorOf([&] { RevocationFile::parse(many, kPath); })
                    .contains(QStringLiteral("line %1: more than %2 peers")
                                  .arg(RevocationFile::kMaxPeers + 1)
                                  .arg(RevocationFile::kMaxPeers)));
    }

    void readAgainAsItChangesAndABrokenEditKeepsTheList() {
        QTemporaryDir dir;
        const QString file = dir.filePath(kPath);
        RevocationFile revocations(file); // missing: nobody revoked yet
        QVERIFY(revocations.current().empty());
        rewrite(file, idLine(a_));
        QCOMPARE(revocations.current(), std::set<PeerId>{a_});
        rewrite(file, idLine(a_) + idLine(b_));
        QCOMPARE(revocations.current(), (std::set<PeerId>{a_, b_}));
        rewrite(file, "half an edit\n");
        QCOMPARE(revocations.current(), (std::set<PeerId>{a_, b_}));
        QVERIFY(revocations.problem().contains("stays in force"));
        rewrite(file, idLine(b_));
        QCOMPARE(revocations.current(), std::set<PeerId>{b_});
        QVERIFY(revocations.problem().isEmpty());
        rewrite(file, "not an id\n");
        QVERIFY(errorOf([&] { RevocationFile unreadable(file); }).contains("line 1"));
    }

    // What a peer learnt stays: an id taken off the list again is not re-admitted.
    void revokedPeersOnlyGrow() {
        RevokedPeers revoked;
        QCOMPARE(revoked.add({a_}), std::vector<PeerId>{a_});
        QCOMPARE(revoked.add({a_, b_}), std::vector<PeerId>{b_});
        QVERIFY(revoked.add({b_}).empty());
        QVERIFY(revoked.contains(a_) && revoked.contains(b_));
        QCOMPARE(revoked.size(), std::size_t(2));
    }
};

QTEST_GUILESS_MAIN(TestRevocationFile)
#include "tst_revocation_file.moc"
