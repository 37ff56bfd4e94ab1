// sahaj-bench-allreduce: the butterfly all-reduce on links of known speed (network namespaces shaped
// with tc tbf by scripts/netns/setup.sh), against the load-balanced lower bound for those bandwidths.
//
// For each bandwidth set: one sahaj-allreduce-peer process per peer, each in its own namespace, averages
// a vector of --size values (sahajBERT's 18.1 M by default) in fp16 on the wire, first with the load
// balancer's spans, then with equal spans. The round time is the slowest member's. The bound is ξ*·V:
// the least time any split can take when peer i moves V·(1 + (G−2)·w_i) values each way at its link
// rate (LoadBalancer). The ratio measured / bound is the figure (≥ 1; TCP/IP headers alone cost ~3 %).
//
// Needs root (namespaces) and the sahaj-allreduce-peer executable of the test build.
#include "core/collab/GroupSpec.h"
#include "core/collab/LoadBalancer.h"
#include "core/collab/TensorEncoding.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStringList>
#include <QTextStream>

#include <memory>

using namespace sahaj;

namespace {

struct PeerSpec {
    int rateMbit = 0;
    bool client = false;
};

struct Peer {
    std::unique_ptr<QProcess> process;
    std::string peerId;
    std::string endpoint;
    double seconds = 0.0;
    bool complete = false;
};

QTextStream& out() {
    static QTextStream stream(stdout);
    return stream;
}

QJsonObject readJsonLine(QProcess& process, int timeoutMs) {
    QElapsedTimer timer;
    timer.start();
    while (!process.canReadLine() && timer.elapsed() < timeoutMs)
        process.waitForReadyRead(200);
    return process.canReadLine() ? QJsonDocument::fromJson(process.readLine()).object() : QJsonObject();
}

// "1000,500,50c": rates in Mbit/s, "c" marks a client.
std::vector<PeerSpec> parseSet(const QString& text) {
    std::vector<PeerSpec> peers;
    for (QString item : text.split(',')) {
        PeerSpec peer;
        peer.client = item.endsWith('c');
        if (peer.client)
            item.chop(1);
        bool ok = false;
        peer.rateMbit = item.toInt(&ok);
        if (!ok || peer.rateMbit <= 0)
            throw std::invalid_argument("bad bandwidth '" + item.toStdString() + "' in set '" +
                                        text.toStdString() + "'");
        peers.push_back(peer);
    }
    return peers;
}

bool run(const QString& program, const QStringList& arguments) {
    QProcess process;
    process.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    process.start(program, arguments);
    process.waitForFinished(60000);
    process.readAllStandardOutput();
    return process.exitStatus() == QProcess::NormalExit && process.exitCode() == 0;
}

// One round on the shaped network with the given span counts; returns the slowest member's seconds.
double round(const QString& peerProgram, const QString& prefix, const std::vector<PeerSpec>& set,
             std::int64_t size, std::vector<std::int64_t> counts, bool& complete) {
    std::vector<Peer> peers(set.size());
    for (std::size_t i = 0; i < set.size(); ++i) {
        peers[i].process = std::make_unique<QProcess>();
        peers[i].process->setProcessChannelMode(QProcess::ForwardedErrorChannel);
        const QString address = QString("10.77.0.%1").arg(i + 1);
        peers[i].process->start("ip",
                                {"netns", "exec", QString("%1-%2").arg(prefix).arg(i), peerProgram, "--role",
                                 set[i].client ? "client" : "node", "--index", QString::number(i), "--size",
                                 QString::number(size), "--bind", address, "--timeout-ms", "120000"});
    }
    collab::GroupSpec spec;
    spec.groupId = std::string(16, 'B');
    spec.epoch = 1;
    for (std::size_t i = 0; i < set.size(); ++i) {
        const QJsonObject hello = readJsonLine(*peers[i].process, 60000);
        peers[i].peerId = QByteArray::fromHex(hello.value("peer").toString().toLatin1()).toStdString();
        peers[i].endpoint = hello.value("endpoint").toString().toStdString();
        spec.members.push_back({peers[i].peerId, set[i].client ? wire::ROLE_CLIENT : wire::ROLE_NODE,
                                peers[i].endpoint, set[i].rateMbit * 1e6 / 16.0, 1.0});
    }
    spec.spanCounts = std::move(counts);
    spec.encoding = collab::TensorEncoding::fp16();
    spec.vectorSize = size;
    spec.partElements = 262144;
    const QByteArray line = QByteArray::fromStdString(spec.toWire().SerializeAsString()).toBase64() + "\n";
    for (Peer& peer : peers) {
        peer.process->write(line);
        peer.process->waitForBytesWritten(10000);
    }
    double slowest = 0.0;
    complete = true;
    for (Peer& peer : peers) {
        const QJsonObject result = readJsonLine(*peer.process, 600000);
        slowest = std::max(slowest, result.value("seconds").toDouble());
        complete = complete && result.value("complete").toBool();
    }
    for (Peer& peer : peers) {
        peer.process->closeWriteChannel();
        if (!peer.process->waitForFinished(10000))
            peer.process->kill();
    }
    return slowest;
}

} // namespace

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    QStringList sets{"100,100,100,100", "1000,100,100,20", "1000,500,200,100,100,50,50c,20c"};
    std::int64_t size = 18'105'474;
    QString peerProgram = QString::fromUtf8(SAHAJ_ALLREDUCE_PEER);
    const QString netns = QString::fromUtf8(SAHAJ_SOURCE_DIR) + "/scripts/netns/";
    const QStringList args = app.arguments();
    for (int i = 1; i + 1 < args.size(); i += 2) {
        if (args[i] == "--sets")
            sets = args[i + 1].split(';');
        else if (args[i] == "--size")
            size = args[i + 1].toLongLong();
        else if (args[i] == "--peer")
            peerProgram = args[i + 1];
        else {
            QTextStream(stderr)
                << "usage: sahaj-bench-allreduce [--sets \"100,100;1000,20c\"] [--size N] [--peer PATH]\n";
            return 2;
        }
    }
    const QString prefix = "sbench";
    out() << "all-reduce of " << size << " values, fp16 on the wire, links shaped with tc tbf\n";
    for (const QString& text : sets) {
        const std::vector<PeerSpec> set = parseSet(text);
        QStringList rates;
        std::vector<collab::MemberBandwidth> bandwidths;
        for (const PeerSpec& peer : set) {
            rates << QString::number(peer.rateMbit);
            bandwidths.push_back({peer.rateMbit * 1e6 / 16.0, !peer.client}); // fp16 values per second
        }
        if (!run(netns + "setup.sh", QStringList{prefix} + rates)) {
            QTextStream(stderr) << "cannot build the shaped network (root needed)\n";
            return 1;
        }
        const collab::LoadBalance balance = collab::LoadBalancer::solve(bandwidths);
        const double bound = balance.xi * static_cast<double>(size);
        bool complete = false;
        const double balanced = round(peerProgram, prefix, set, size,
                                      collab::LoadBalancer::apportion(balance.shares, size), complete);
        // Equal spans among the members that can aggregate, for comparison.
        std::vector<double> equal;
        for (const PeerSpec& peer : set)
            equal.push_back(peer.client ? 0.0 : 1.0);
        bool completeEqual = false;
        const double even = round(peerProgram, prefix, set, size,
                                  collab::LoadBalancer::apportion(equal, size), completeEqual);
        double equalBound = 0.0;
        const double nodes = static_cast<double>(std::count(equal.begin(), equal.end(), 1.0));
        for (std::size_t i = 0; i < set.size(); ++i) {
            const double share = equal[i] / nodes;
            equalBound =
                std::max(equalBound, (1.0 + (set.size() - 2.0) * share) / bandwidths[i].bandwidth * size);
        }
        run(netns + "teardown.sh", {prefix});
        out() << QString("set {%1} Mbit/s\n").arg(text);
        out() << QString("  load-balanced spans: %1 s, bound %2 s, ratio %3%4\n")
                     .arg(balanced, 0, 'f', 2)
                     .arg(bound, 0, 'f', 2)
                     .arg(balanced / bound, 0, 'f', 3)
                     .arg(complete ? "" : " (INCOMPLETE)");
        out() << QString("  equal spans:         %1 s, bound for equal spans %2 s, ratio to the "
                         "load-balanced bound %3%4\n")
                     .arg(even, 0, 'f', 2)
                     .arg(equalBound, 0, 'f', 2)
                     .arg(even / bound, 0, 'f', 3)
                     .arg(completeEqual ? "" : " (INCOMPLETE)");
        out().flush();
    }
    return 0;
}
