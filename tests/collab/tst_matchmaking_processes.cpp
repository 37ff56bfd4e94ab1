// Group formation between real processes on loopback: each peer joins the DHT (a bootstrap node in this
// process), forms a group for epoch 1 with Matchmaking, averages in it, and reports the group it got.
// Peers of one schema end in one group whose members agree bit for bit; a peer with another schema never
// joins them.
//
// Gather time: 10 s, and gathering never ends early (min gather = gather). Clients declare nothing, so a
// leader that ended as soon as the declared nodes had joined could leave a client out; and in the late-peer
// case the leader's declaration expires 10 s after it was made, while the late peer declares about 1.5 s
// after the others, so it finds the leader with several seconds of gathering left.
//
// Each case (each data row) is a run of its own (--run): the declarations of the previous case's peers
// outlive it in the bootstrap node by seconds, and peers of the next case would otherwise try to join those
// dead leaders.
//
// Each peer reports "ready" once its DHT is up and then waits for a line before it matches; the test lets
// peers begin together (or, where a case says so, a set time apart) once all of them are ready, so that
// the seconds a loaded machine takes to start a process do not decide who finds whom.
#include "core/dht/DhtNode.h"
#include "core/dht/DhtNodeOptions.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSet>
#include <QThread>
#include <QtTest>

#include <algorithm>
#include <memory>

using namespace sahaj;

namespace {

struct Peer {
    std::unique_ptr<QProcess> process;
    QJsonObject result;
};

// The next line the process prints, once it has one (empty if it ends or the time runs out first).
QByteArray readLine(QProcess& process, int timeoutMs) {
    QElapsedTimer timer;
    timer.start();
    process.waitForStarted();
    while (!process.canReadLine() && timer.elapsed() < timeoutMs && process.state() == QProcess::Running)
        process.waitForReadyRead(200);
    return process.canReadLine() ? process.readLine() : QByteArray();
}

QJsonObject readJsonLine(QProcess& process, int timeoutMs) {
    return QJsonDocument::fromJson(readLine(process, timeoutMs)).object();
}

// Waits until every peer has reported "ready" (its DHT is up, its ROUTER bound); false, with a warning,
// if one did not.
bool waitUntilReady(std::vector<Peer>& peers) {
    for (Peer& peer : peers) {
        const QByteArray line = readLine(*peer.process, 90000).trimmed();
        if (line != "ready") {
            qWarning("a peer did not get ready: '%s'", line.constData());
            return false;
        }
    }
    return true;
}

void tellToBegin(Peer& peer) {
    peer.process->write("go\n");
    peer.process->waitForBytesWritten(5000);
}

// Waits until the peers of every group are ready, then lets all of them begin at once.
template <typename... Groups>
bool beginTogether(Groups&... groups) {
    if (!(waitUntilReady(groups) && ...))
        return false;
    (std::for_each(groups.begin(), groups.end(), tellToBegin), ...);
    return true;
}

QStringList membersOf(const Peer& peer) {
    QStringList members;
    for (const QJsonValue& member : peer.result.value("members").toArray())
        members << member.toString();
    return members;
}

} // namespace

class TestMatchmakingProcesses : public QObject {
    Q_OBJECT

    std::unique_ptr<sahaj::dht::DhtNode> bootstrap_;
    QString peerExecutable_;

    // The test function and its data row: the rows of one function are cases of their own too (the liar
    // of one row, whose declaration is always the earliest, otherwise outlived it: the next row's honest
    // peers asked that dead leader, and a redirect to it, for seconds each).
    static QString runOfThisCase() {
        QString run = QString::fromUtf8(QTest::currentTestFunction());
        if (const char* row = QTest::currentDataTag())
            run += QLatin1Char('-') + QString::fromUtf8(row);
        return run;
    }

    Peer start(const QString& role, int seed, const QString& schema = "A", const QStringList& extra = {}) {
        Peer peer;
        peer.process = std::make_unique<QProcess>();
        peer.process->setProcessChannelMode(QProcess::ForwardedErrorChannel);
        peer.process->start(peerExecutable_,
                            QStringList{"--bootstrap", QString("127.0.0.1:%1").arg(bootstrap_->port()),
                                        "--role", role, "--seed", QString::number(seed), "--weight",
                                        QString::number(seed * 4), "--schema", schema, "--run",
                                        runOfThisCase()} +
                                extra);
        return peer;
    }

    // Adds peers of schema A with the next seeds (weights 4, 8, 12...).
    void startMore(std::vector<Peer>& peers, const QStringList& roles) {
        for (const QString& role : roles)
            peers.push_back(start(role, static_cast<int>(peers.size()) + 1));
    }

    static void finish(std::vector<Peer>& peers) {
        for (Peer& peer : peers)
            peer.result = readJsonLine(*peer.process, 150000);
        for (Peer& peer : peers) {
            peer.process->closeWriteChannel();
            if (!peer.process->waitForFinished(10000)) {
                peer.process->kill();
                peer.process->waitForFinished();
            }
        }
    }

    // Every peer of `peers` reports the same group of exactly these peers, in peer-id order, each at its
    // own index, with identical averages.
    static void verifyOneGroup(const std::vector<Peer>& peers) {
        QStringList expected;
        for (const Peer& peer : peers) {
            QVERIFY2(!peer.result.isEmpty(), "a peer reported nothing");
            expected << peer.result.value("peer").toString();
        }
        std::sort(expected.begin(), expected.end()); // hex of the ids sorts as the raw bytes do
        int leaders = 0;
        for (const Peer& peer : peers) {
            const QString report =
                QString::fromUtf8(QJsonDocument(peer.result).toJson(QJsonDocument::Compact));
            QCOMPARE(peer.result.value("group").toString(), peers.front().result.value("group").toString());
            QCOMPARE(peer.result.value("group").toString().size(), 32); // 16 bytes
            QVERIFY2(membersOf(peer) == expected, qPrintable(report));
            QCOMPARE(peer.result.value("index").toInt(),
                     int(expected.indexOf(peer.result.value("peer").toString())));
            QVERIFY2(peer.result.value("complete").toBool(), qPrintable(report));
            QCOMPARE(peer.result.value("sha256").toString(), peers.front().result.value("sha256").toString());
            leaders += peer.result.value("leader").toBool() ? 1 : 0;
        }
        QCOMPARE(leaders, 1);
    }

private Q_SLOTS:
    void initTestCase() {
        peerExecutable_ = QString::fromUtf8(SAHAJ_MATCHMAKING_PEER);
        QVERIFY2(QFile::exists(peerExecutable_), qPrintable(peerExecutable_));
        bootstrap_ = std::make_unique<sahaj::dht::DhtNode>(sahaj::dht::DhtNodeOptions{});
    }

    void threeNodesAndAClientFormOneGroup() {
        std::vector<Peer> peers;
        startMore(peers, {"node", "node", "node", "client"});
        QVERIFY(beginTogether(peers));
        finish(peers);
        verifyOneGroup(peers);
        QCOMPARE(peers.front().result.value("members").toArray().size(), 4);
    }

    void aLatePeerStillJoins() {
        std::vector<Peer> peers;
        startMore(peers, {"node", "node", "node"});
        QVERIFY(waitUntilReady(peers));
        tellToBegin(peers[0]);
        tellToBegin(peers[1]);
        QThread::msleep(1500);
        tellToBegin(peers[2]);
        finish(peers);
        verifyOneGroup(peers);
        QCOMPARE(peers.front().result.value("members").toArray().size(), 3);
    }

    // A leader that already accepted a member hands it over (REDIRECT) when a better leader appears (one
    // whose declaration expires earlier), and joins that leader itself: one group, led by the newcomer.
    void aBetterLeaderTakesTheGroupOver() {
        std::vector<Peer> peers;
        const QStringList slow{"--gather-ms", "14000", "--min-gather-ms", "14000"};
        peers.push_back(start("node", 1, "A", slow));
        peers.push_back(start("node", 2, "A", slow)); // joins the first
        peers.push_back(start("node", 3, "A", {"--gather-ms", "4000", "--min-gather-ms", "4000"}));
        QVERIFY(waitUntilReady(peers));
        tellToBegin(peers[0]);
        QThread::msleep(1500);
        tellToBegin(peers[1]);
        QThread::msleep(2500);
        tellToBegin(peers[2]);
        finish(peers);
        verifyOneGroup(peers);
        QCOMPARE(peers.front().result.value("members").toArray().size(), 3);
        QVERIFY2(peers.back().result.value("leader").toBool(), "the better leader did not lead");
    }

    // Admitted is not trusted: a leader whose declaration is always the earliest accepts the honest peers
    // and then breaks its word. never-begins: it begins no group; without the wait bounded by its
    // expiration and the refusal of its next declarations, the honest peers follow it again and again and
    // end alone at the deadline. tiny-parts: parts of one value; crowd: a thousand made-up members. Without
    // the check of a GroupBegin against the run's plan the honest peers take those groups. Either way they
    // must end in a group of their own, and name the liar.
    void aLeaderThatBreaksItsWordIsLeftBehind_data() {
        QTest::addColumn<QString>("attack");
        QTest::newRow("never-begins") << "never-begins";
        QTest::newRow("tiny-parts") << "tiny-parts";
        QTest::newRow("crowd") << "crowd";
    }
    void aLeaderThatBreaksItsWordIsLeftBehind() {
        QFETCH(QString, attack);
        std::vector<Peer> liar;
        liar.push_back(start("node", 9, "A", {"--attack", attack}));
        // The honest peers gather for 16 s: each waits up to the liar's expiration + 5 s for its GroupBegin
        // first, and a declaration of theirs that expired meanwhile would have one of them begin alone.
        const QStringList gather{"--gather-ms", "16000", "--min-gather-ms", "16000"};
        std::vector<Peer> honest;
        honest.push_back(start("node", 1, "A", gather));
        honest.push_back(start("node", 2, "A", gather));
        QVERIFY(waitUntilReady(liar) && waitUntilReady(honest));
        tellToBegin(liar.front());
        const QString liarId = readJsonLine(*liar.front().process, 10000).value("peer").toString();
        QVERIFY2(!liarId.isEmpty(), "the liar did not say who it is");
        QThread::msleep(1000); // its declaration is in the DHT before the honest peers look
        std::for_each(honest.begin(), honest.end(), tellToBegin);
        finish(honest);
        liar.front().process->closeWriteChannel();
        liar.front().process->waitForFinished(10000);
        verifyOneGroup(honest);
        QCOMPARE(membersOf(honest.front()).size(), 2);
        int named = 0;
        for (const Peer& peer : honest)
            for (const QJsonValue problem : peer.result.value("problems").toArray()) {
                QVERIFY2(problem.toString().contains(liarId), qPrintable(problem.toString()));
                ++named;
            }
        QVERIFY2(named > 0, "no honest peer named the liar");
    }

    void anotherSchemaStaysApart() {
        std::vector<Peer> same;
        same.push_back(start("node", 1, "A"));
        same.push_back(start("node", 2, "A"));
        std::vector<Peer> other;
        other.push_back(start("node", 3, "B"));
        QVERIFY(beginTogether(same, other));
        finish(same);
        finish(other);
        verifyOneGroup(same);
        const Peer& odd = other.front();
        QVERIFY2(!odd.result.isEmpty(), "the peer with another schema reported nothing");
        // It ends alone: a group of one, itself, which nobody else is in.
        QCOMPARE(membersOf(odd), QStringList{odd.result.value("peer").toString()});
        QVERIFY(odd.result.value("group").toString() != same.front().result.value("group").toString());
        QVERIFY(!membersOf(same.front()).contains(odd.result.value("peer").toString()));
    }
};

QTEST_GUILESS_MAIN(TestMatchmakingProcesses)
#include "tst_matchmaking_processes.moc"
