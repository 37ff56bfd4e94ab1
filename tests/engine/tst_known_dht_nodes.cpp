// The DHT nodes a coordinator keeps for its restart (KnownDhtNodes): saved and read back, damaged lines and
// a missing or oversized file costing nothing but those addresses.
#include "core/engine/KnownDhtNodes.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using sahaj::engine::KnownDhtNodes;

class TestKnownDhtNodes : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void savedAddressesComeBack() {
        QTemporaryDir dir;
        QVERIFY(KnownDhtNodes::load(dir.path()).isEmpty());
        QCOMPARE(KnownDhtNodes::save(dir.path(), {"10.1.2.3:4222", "[2001:db8::1]:5000"}), QString());
        QCOMPARE(KnownDhtNodes::load(dir.path()), (QStringList{"10.1.2.3:4222", "[2001:db8::1]:5000"}));
    }

    void damagedLinesAreSkippedAndTheCountBounded() {
        QTemporaryDir dir;
        QFile file(KnownDhtNodes::pathIn(dir.path()));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("10.0.0.1:1\nnot an address\n10.0.0.2:99999\n\n10.0.0.3:3\n");
        for (int i = 0; i < 100; ++i)
            file.write(QStringLiteral("10.0.1.%1:4000\n").arg(i).toUtf8());
        file.close();
        const QStringList loaded = KnownDhtNodes::load(dir.path());
        QCOMPARE(loaded.size(), KnownDhtNodes::kMaxNodes);
        QCOMPARE(loaded.at(0), QStringLiteral("10.0.0.1:1"));
        QCOMPARE(loaded.at(1), QStringLiteral("10.0.0.3:3"));
        std::vector<QString> many;
        for (int i = 0; i < 100; ++i)
            many.push_back(QStringLiteral("10.0.2.%1:4000").arg(i));
        QCOMPARE(KnownDhtNodes::save(dir.path(), many), QString());
        QCOMPARE(KnownDhtNodes::load(dir.path()).size(), KnownDhtNodes::kMaxNodes);
    }

    void anOversizedFileGivesNone() {
        QTemporaryDir dir;
        QFile file(KnownDhtNodes::pathIn(dir.path()));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(QByteArray(100 * 1024, 'x'));
        file.close();
        QVERIFY(KnownDhtNodes::load(dir.path()).isEmpty());
    }

    void anUnwritableFolderIsSaid() {
        QVERIFY(!KnownDhtNodes::save(QStringLiteral("/proc/no-such-folder"), {"10.0.0.1:1"}).isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestKnownDhtNodes)
#include "tst_known_dht_nodes.moc"
