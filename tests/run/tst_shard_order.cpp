// Each peer's order of a run's shards: a permutation, the same after every restart, its own per peer and
// per pass, and weighted as the manifest says (two corpora mixed 0.23 / 0.77, as sahajBERT mixed
// Wikipedia and OSCAR): over many peers, each corpus comes first about as often as its weight says.
#include "core/run/ShardOrder.h"

#include <QCryptographicHash>
#include <QTest>

#include <algorithm>
#include <set>

using namespace sahaj::run;

namespace {

std::vector<DataShard> shards(int count, double weight, const QString& corpus) {
    std::vector<DataShard> out;
    for (int i = 0; i < count; ++i) {
        const QString name = QStringLiteral("%1-%2").arg(corpus).arg(i);
        out.push_back(DataShard{
            {"https://example.org/" + name},
            QString::fromLatin1(QCryptographicHash::hash(name.toUtf8(), QCryptographicHash::Sha256).toHex()),
            1000,
            weight});
    }
    return out;
}

} // namespace

class TestShardOrder : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void isAStablePermutationOfItsOwn() {
        const std::vector<DataShard> all = shards(50, 1.0, "wiki");
        const std::vector<std::size_t> order = ShardOrder::forPeer(all, "run-1", "peer-a");
        QCOMPARE(std::set<std::size_t>(order.begin(), order.end()).size(), all.size());
        QCOMPARE(*std::max_element(order.begin(), order.end()), all.size() - 1);
        QVERIFY(ShardOrder::forPeer(all, "run-1", "peer-a") == order);    // after a restart
        QVERIFY(ShardOrder::forPeer(all, "run-1", "peer-b") != order);    // another peer
        QVERIFY(ShardOrder::forPeer(all, "run-2", "peer-a") != order);    // another run
        QVERIFY(ShardOrder::forPeer(all, "run-1", "peer-a", 1) != order); // the next pass
        QVERIFY(ShardOrder::forPeer(all, "run-1", "peer-a", 0) == order);
    }

    void twoPeersRarelyStartOnTheSameShard() {
        const std::vector<DataShard> all = shards(100, 1.0, "wiki");
        int same = 0;
        for (int p = 0; p < 500; ++p)
            same += ShardOrder::forPeer(all, "run-1", QString::number(2 * p))[0] ==
                    ShardOrder::forPeer(all, "run-1", QString::number(2 * p + 1))[0];
        // 1 in 100 by chance: 5 of 500 expected.
        QVERIFY2(same <= 15, qPrintable(QString::number(same)));
    }

    void weightsMixTheCorpora() {
        std::vector<DataShard> all = shards(20, 0.23, "wiki");
        for (const DataShard& shard : shards(20, 0.77, "oscar"))
            all.push_back(shard);
        int oscarFirst = 0;
        int oscarInFirstTen = 0;
        constexpr int kPeers = 4000;
        for (int p = 0; p < kPeers; ++p) {
            const std::vector<std::size_t> order = ShardOrder::forPeer(all, "run-1", QString::number(p));
            oscarFirst += order[0] >= 20;
            for (int i = 0; i < 10; ++i)
                oscarInFirstTen += order[std::size_t(i)] >= 20;
        }
        const double first = double(oscarFirst) / kPeers;
        QVERIFY2(first > 0.73 && first < 0.81, qPrintable(QString::number(first)));
        // Drawn without replacement, the heavy corpus also leads the early picks.
        const double early = double(oscarInFirstTen) / (10.0 * kPeers);
        QVERIFY2(early > 0.65, qPrintable(QString::number(early)));
        // Equal weights: no corpus is preferred.
        for (DataShard& shard : all)
            shard.weight = 1.0;
        oscarFirst = 0;
        for (int p = 0; p < kPeers; ++p)
            oscarFirst += ShardOrder::forPeer(all, "run-1", QString::number(p))[0] >= 20;
        QVERIFY2(std::abs(double(oscarFirst) / kPeers - 0.5) < 0.04, qPrintable(QString::number(oscarFirst)));
    }
};

QTEST_GUILESS_MAIN(TestShardOrder)
#include "tst_shard_order.moc"
