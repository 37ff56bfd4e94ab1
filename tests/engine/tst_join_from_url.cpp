// Joining a run from nothing but its join URL, end to end on loopback: a real nginx serves the signed
// join file, the tokenizer and a shard (at a paced rate); a real coordinator (sahaj-node, open policy)
// serves the same files with --serve-data. A volunteer with an empty cache joins from the join URL,
// downloads everything from nginx and trains; a second one starts downloading the shard from nginx, nginx
// is stopped under it, and it resumes from the coordinator's mirror where nginx left off and trains with
// the others.
#include "core/run/RunManifest.h"
#include "tests/common/NginxServer.h"
#include "tests/common/NodePeers.h"
#include "tests/common/TestFiles.h"
#include "tests/fetch/ShardFiles.h"

#include <QCryptographicHash>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace sahaj::test;

namespace {

const QStringList kTiming{"--gather-ms", "4000", "--min-gather-ms", "700",
                          "--lead-ms",   "1000", "--threads",       "1"};
constexpr int kSteps = 2;
// The shard's pace at nginx: the second volunteer's download lasts seconds, so that nginx can be stopped
// in the middle of it.
constexpr qint64 kShardRate = 512 * 1024;

// The bytes of the partial download of the file with SHA-256 `sha256` under `cacheDir`; -1 while there
// is none.
qint64 partialBytes(const QString& cacheDir, const QString& sha256) {
    QDirIterator files(cacheDir, {sha256 + ".part"}, QDir::Files, QDirIterator::Subdirectories);
    return files.hasNext() ? QFileInfo(files.next()).size() : -1;
}

// The "download" events a volunteer printed for `name`'s file.
std::vector<QJsonObject> downloadsOf(const QString& log, const QString& nameEnd) {
    std::vector<QJsonObject> events;
    for (const QJsonObject& line : readJsonLines(log + ".out"))
        if (line["event"] == "download" && line["name"].toString().endsWith(nameEnd))
            events.push_back(line);
    return events;
}

} // namespace

class TestJoinFromUrl : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    std::unique_ptr<NginxServer> nginx_;
    QString www_;
    qint64 shardBytes_ = 0;
    QString shardSha256_;

    NodePeer startVolunteer(const QString& name, const QString& bootstrap) {
        NodePeer peer;
        peer.dir = dir_.filePath(name);
        QDir().mkpath(peer.dir);
        peer.process =
            launchNode(QStringList{"volunteer", "--join", nginx_->url("run.join"), "--coordinator", bootstrap,
                                   "--identity", peer.dir, "--out", peer.dir, "--steps",
                                   QString::number(kSteps), "--seed", QString::number(name.size())} +
                           kTiming,
                       peer.dir + "/log");
        return peer;
    }

public:
    TestJoinFromUrl() { qputenv("QTEST_FUNCTION_TIMEOUT", "900000"); }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        dir_.setAutoRemove(qEnvironmentVariableIsEmpty("SAHAJ_KEEP_TEST_DIRS"));
        const QString tokenizer = sampleTokenizerPath();
        QVERIFY2(NginxServer::available(), qPrintable(NginxServer::missingReason()));

        // What the organiser publishes: the corpus (the sample, repeated to a few MiB), the tokenizer.
        www_ = dir_.filePath("www");
        QDir().mkpath(www_);
        const QByteArray sample =
            readText(qEnvironmentVariable("SAHAJ_SOURCE_DIR") + "/tests/train/data/bengali-sample.txt")
                .toUtf8();
        QVERIFY(!sample.isEmpty());
        QByteArray corpus;
        while (corpus.size() < 3 * 1024 * 1024)
            corpus += sample + "\n\n";
        writeBytes(www_ + "/corpus.txt", corpus);
        shardBytes_ = corpus.size();
        shardSha256_ =
            QString::fromLatin1(QCryptographicHash::hash(corpus, QCryptographicHash::Sha256).toHex());
        QVERIFY(QFile::copy(tokenizer, www_ + "/tokenizer.json"));

        QDir().mkpath(dir_.filePath("nginx"));
        nginx_ = std::make_unique<NginxServer>(www_, dir_.filePath("nginx"));
        nginx_->setSlowRate(kShardRate);
        QString error;
        QVERIFY2(nginx_->start(&error), qPrintable(error));

        const QString manifest = dir_.filePath("run/manifest.json");
        QDir().mkpath(dir_.filePath("run"));
        const auto init = initTinyRun(
            manifest, "join-url-test", www_ + "/corpus.txt", www_ + "/tokenizer.json", "64", "0.01", "2", "5",
            {"--url-prefix", nginx_->slowUrl(""), "--tokenizer-url", nginx_->url("tokenizer.json")});
        QVERIFY2(init.status == 0, qPrintable(init.err + init.out));
        QVERIFY(QFile::copy(dir_.filePath("run/manifest.join"), www_ + "/run.join"));
    }

    void volunteersJoinFromTheJoinUrlAndResumeFromTheCoordinator() {
        NodePeer coordinator;
        coordinator.dir = dir_.filePath("coordinator");
        QDir().mkpath(coordinator.dir);
        coordinator.process = launchNode(
            QStringList{"coordinator", "--manifest", dir_.filePath("run/manifest.json"), "--listen",
                        "127.0.0.1:0", "--state-dir", coordinator.dir, "--out", coordinator.dir, "--steps",
                        QString::number(kSteps), "--serve-data", www_} +
                kTiming,
            coordinator.dir + "/log");
        const QString bootstrap = coordinatorAddress(coordinator.dir + "/log");
        QVERIFY2(!bootstrap.isEmpty(), qPrintable(readText(coordinator.dir + "/log.err")));
        const auto mirrorLine = [&] {
            for (const QJsonObject& line : readJsonLines(coordinator.dir + "/log.out"))
                if (line["event"] == "mirror")
                    return line;
            return QJsonObject{};
        }();
        QCOMPARE(mirrorLine["files"].toInt(), 2); // the shard and the tokenizer
        QCOMPARE(mirrorLine["of"].toInt(), 2);

        // The first volunteer gets everything from nginx.
        NodePeer first = startVolunteer("first", bootstrap);
        QTRY_VERIFY_WITH_TIMEOUT(
            !downloadsOf(first.dir + "/log", "corpus.txt").empty() &&
                downloadsOf(first.dir + "/log", "corpus.txt").back()["finished"].toBool(),
            120000);
        const QJsonObject firstDone = downloadsOf(first.dir + "/log", "corpus.txt").back();
        QCOMPARE(firstDone["place"].toString(), nginx_->slowUrl("corpus.txt"));
        QCOMPARE(firstDone["bytes"].toInteger(), shardBytes_);

        // The second starts on nginx; nginx goes away under it.
        NodePeer second = startVolunteer("second", bootstrap);
        QTRY_VERIFY_WITH_TIMEOUT(partialBytes(second.dir + "/shards", shardSha256_) > 0, 120000);
        nginx_->stop();
        const qint64 fromNginx = partialBytes(second.dir + "/shards", shardSha256_);
        QVERIFY(fromNginx < shardBytes_);

        // The volunteers' steps are what this test is about; the coordinator is stopped after them. Waiting
        // for it to reach kSteps as well failed once under load: it was in none of the volunteers' three
        // groups, which they formed in 6 s, and stayed behind alone once they had gone.
        QVERIFY2(finishNodes({&first, &second}, 600000),
                 qPrintable(readText(second.dir + "/log.err") + readText(first.dir + "/log.err")));
        stopNode(coordinator);
        for (NodePeer* peer : {&first, &second}) {
            QCOMPARE(peer->process->exitCode(), 0);
            QVERIFY2(readJsonObject(peer->dir + "/summary.json")["epoch"].toInteger() >= kSteps,
                     qPrintable(readText(peer->dir + "/log.err")));
        }
        // The second volunteer reported nginx's failure and finished the shard from the mirror, resuming:
        // its first progress from the mirror already counted what nginx had delivered.
        const QString secondErr = readText(second.dir + "/log.err");
        QVERIFY2(secondErr.contains(nginx_->slowUrl("corpus.txt")), qPrintable(secondErr));
        const auto fetched = [&](const NodePeer& peer) {
            for (const QJsonObject& line : readJsonLines(peer.dir + "/log.out"))
                if (line["event"] == "fetched" && line["name"].toString().endsWith("corpus.txt"))
                    return line;
            return QJsonObject{};
        };
        const QJsonObject resumed = fetched(second);
        QVERIFY2(resumed["place"].toString().startsWith("the coordinator's mirror at tcp://127.0.0.1:"),
                 qPrintable(readText(second.dir + "/log.out")));
        QVERIFY(resumed["bytes_resumed"].toInteger() >= fromNginx);
        QVERIFY(resumed["bytes_resumed"].toInteger() < shardBytes_);
        // The cache was empty: every byte came over the network once, none twice.
        QCOMPARE(resumed["bytes_received"].toInteger(), shardBytes_);
        QCOMPARE(fetched(first)["place"].toString(), nginx_->slowUrl("corpus.txt"));
        QCOMPARE(fetched(first)["bytes_received"].toInteger(), shardBytes_);
        // Nothing half-written was left behind, and the file trained on is the manifest's.
        QCOMPARE(partialBytes(second.dir + "/shards", shardSha256_), -1);
    }

    // A run of several small shards: the volunteer trains through them (the next one prefetched while it
    // trains on the current), saves where it is, and after a restart goes on from there.
    void aVolunteerGoesThroughItsShardsAndContinuesWhereItStopped() {
        QString error;
        QVERIFY2(nginx_->start(&error), qPrintable(error)); // the previous test stopped it
        // The organiser's corpus, cut by sahaj-node shard into zstd-compressed JSONL shards of a few
        // micro-batches each (several shards per step), beside one plain-text shard.
        const QString sample =
            readText(qEnvironmentVariable("SAHAJ_SOURCE_DIR") + "/tests/train/data/bengali-sample.txt");
        QStringList paragraphs;
        for (int copy = 0; copy < 3; ++copy) // numbered, so that no two shards have the same bytes
            for (const QString& line : sample.split('\n', Qt::SkipEmptyParts))
                paragraphs << QStringLiteral("%1. %2").arg(paragraphs.size()).arg(line);
        writeBytes(dir_.filePath("corpus-small.txt"), paragraphs.join("\n\n").toUtf8());
        const NodeRun split =
            runNode({"shard", "--corpus", dir_.filePath("corpus-small.txt"), "--shard-mb", "0.006", "--out",
                     www_ + "/small", "--compress", "zstd", "--url-prefix", nginx_->url("small")});
        QVERIFY2(split.status == 0, qPrintable(split.err + split.out));
        writeBytes(www_ + "/plain-shard.txt", sample.toUtf8());
        const QString manifest = dir_.filePath("small/manifest.json");
        QDir().mkpath(dir_.filePath("small"));
        const auto init = initTinyRun(manifest, "join-shards-test", www_ + "/plain-shard.txt",
                                      www_ + "/tokenizer.json", "64", "0.01", "2", "5",
                                      {"--data", www_ + "/small/data.json", "--url-prefix", nginx_->url(""),
                                       "--tokenizer-url", nginx_->url("tokenizer.json")});
        QVERIFY2(init.status == 0, qPrintable(init.err + init.out));
        const qsizetype shardCount = sahaj::run::RunManifest::loadFile(manifest).data.size();
        QVERIFY2(shardCount >= 6, qPrintable(QString::number(shardCount)));
        QVERIFY(QFile::copy(dir_.filePath("small/manifest.join"), www_ + "/small.join"));

        NodePeer coordinator;
        coordinator.dir = dir_.filePath("small-coordinator");
        QDir().mkpath(coordinator.dir);
        coordinator.process =
            launchNode(QStringList{"coordinator", "--manifest", manifest, "--listen", "127.0.0.1:0",
                                   "--state-dir", coordinator.dir, "--out", coordinator.dir, "--steps", "6"} +
                           kTiming,
                       coordinator.dir + "/log");
        const QString bootstrap = coordinatorAddress(coordinator.dir + "/log");
        QVERIFY2(!bootstrap.isEmpty(), qPrintable(readText(coordinator.dir + "/log.err")));

        const QString peerDir = dir_.filePath("walker");
        const auto run = [&](int steps, const QString& log) {
            NodePeer peer;
            peer.dir = peerDir;
            peer.process = launchNode(QStringList{"volunteer", "--join", nginx_->url("small.join"),
                                                  "--coordinator", bootstrap, "--identity", peerDir, "--out",
                                                  peerDir, "--steps", QString::number(steps), "--seed", "7"} +
                                          kTiming,
                                      peerDir + "/" + log);
            return peer;
        };
        QDir().mkpath(peerDir);
        NodePeer first = run(3, "first");
        QVERIFY2(finishNodes({&first}, 300000), qPrintable(readText(peerDir + "/first.err")));
        QCOMPARE(first.process->exitCode(), 0);
        const QString firstErr = readText(peerDir + "/first.err");
        // It went through several shards, each brought while it trained on the one before.
        QVERIFY2(firstErr.count("next shard ready") >= 2, qPrintable(firstErr));
        double waited = 0;
        double wall = 0;
        for (const QJsonObject& epoch : readJsonLines(peerDir + "/epochs.jsonl")) {
            QVERIFY(epoch.contains("data_wait_seconds"));
            waited += epoch["data_wait_seconds"].toDouble();
            wall += epoch["wall_seconds"].toDouble();
        }
        qInfo("data wait: %.3f s of %.1f s (%.2f %%)", waited, wall, wall > 0 ? 100.0 * waited / wall : 0.0);
        QDir identity(peerDir);
        const QStringList cursors = identity.entryList({"data-cursor-*.json"}, QDir::Files);
        QCOMPARE(cursors.size(), 1);
        const QJsonObject cursor = readJsonObject(identity.filePath(cursors.front()));
        QCOMPARE(cursor["run"].toString(), QString("join-shards-test"));
        QVERIFY(cursor["pass"].toInteger() > 0 || cursor["position"].toInteger() > 0);

        // Restarted, it goes on at the shard it was on.
        NodePeer second = run(6, "second");
        QVERIFY2(finishNodes({&second, &coordinator}, 300000), qPrintable(readText(peerDir + "/second.err")));
        QCOMPARE(second.process->exitCode(), 0);
        const QString secondErr = readText(peerDir + "/second.err");
        QVERIFY2(secondErr.contains(QStringLiteral("continuing where this peer stopped: shard ")),
                 qPrintable(secondErr));
        QVERIFY2(secondErr.contains(QStringLiteral("(pass %1, %2 of %3)")
                                        .arg(cursor["pass"].toInteger())
                                        .arg(cursor["position"].toInteger() + 1)
                                        .arg(shardCount)),
                 qPrintable(secondErr));
    }
};

QTEST_GUILESS_MAIN(TestJoinFromUrl)
#include "tst_join_from_url.moc"
