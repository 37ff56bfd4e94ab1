// sahaj-bench-allreduce: the butterfly all-reduce on links of known speed (network namespaces shaped
// with tc tbf by scripts/netns/setup.sh), against the load-balanced lower bound for those bandwidths and
// against c10d's ProcessGroupGloo (gloo's ring all-reduce) on the same links and the same vector.
//
// For each bandwidth set: one sahaj-allreduce-peer process per peer, each in its own namespace, averages
// a vector of --size values (sahajBERT's 18.1 M by default) in fp16 on the wire, first with the load
// balancer's spans (with each connection paced as the engine paces a link of the member's declared rate,
// then without), then with equal spans, after one untimed round. The configurations take turns, one
// round each per repetition. The round time is the slowest member's. The bound is ξ*·V:
// the least time any split can take when peer i moves V·(1 + (G−2)·w_i) values each way at its link
// rate (LoadBalancer). The ratio measured / bound is the figure (≥ 1; TCP/IP headers alone cost ~3 %).
//
// Then one sahaj-gloo-peer per peer runs gloo's ring on the same vector, also fp16 on the wire (gloo's
// allreduce takes at::kHalf tensors). Gloo has no client role: every peer, clients included, is a rank of
// the ring, which moves 2·(G−1)/G·V values each way through every link, so its slowest link bounds it.
// What each figure includes: Sahaj's round starts when a peer receives the group (its DEALERs connect to
// the aggregators inside the round; a round of a few thousand values, also printed, shows what that and
// the latency cost); gloo's figure excludes the store, the connection of its full mesh and a warm-up
// all-reduce (printed as gloo setup). Both include the fp32 → fp16 → fp32 conversions and the division.
//
// Needs root (namespaces), the sahaj-allreduce-peer executable of the test build and, for the baseline,
// sahaj-gloo-peer (built where libgloo-dev is installed).
#include "core/collab/GroupSpec.h"
#include "core/collab/LoadBalancer.h"
#include "core/collab/PartitionPlan.h"
#include "core/collab/TensorEncoding.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStringList>
#include <QTextStream>

#include <algorithm>
#include <functional>
#include <memory>
#include <vector>

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
    // A process that has exited can print no more: stop waiting for it at once.
    while (!process.canReadLine() && timer.elapsed() < timeoutMs && process.state() != QProcess::NotRunning)
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

// Starts program in namespace PREFIX-index; its standard error goes to ours.
std::unique_ptr<QProcess> startInNamespace(const QString& prefix, std::size_t index, const QString& program,
                                           const QStringList& arguments) {
    auto process = std::make_unique<QProcess>();
    process->setProcessChannelMode(QProcess::ForwardedErrorChannel);
    process->start("ip", QStringList{"netns", "exec", QString("%1-%2").arg(prefix).arg(index), program} +
                             arguments);
    return process;
}

void finish(QProcess& process) {
    process.closeWriteChannel();
    if (!process.waitForFinished(10000))
        process.kill();
}

// One round on the shaped network with the given span counts; returns the slowest member's seconds.
double round(const QString& peerProgram, const QString& prefix, const std::vector<PeerSpec>& set,
             std::int64_t size, std::int64_t partElements, std::vector<std::int64_t> counts, bool& complete,
             const QStringList& extra = {}) {
    std::vector<Peer> peers(set.size());
    for (std::size_t i = 0; i < set.size(); ++i) {
        const QString address = QString("10.77.0.%1").arg(i + 1);
        peers[i].process = startInNamespace(
            prefix, i, peerProgram,
            QStringList{"--role", set[i].client ? "client" : "node", "--index", QString::number(i), "--size",
                        QString::number(size), "--bind", address, "--timeout-ms", "120000"} +
                extra);
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
    spec.partElements = partElements;
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
    for (Peer& peer : peers)
        finish(*peer.process);
    return slowest;
}

struct GlooOutcome {
    double seconds = 0.0;      // the slowest rank's timed all-reduce
    double setupSeconds = 0.0; // the slowest rank's store, mesh and warm-up, not timed
    bool complete = false;     // every rank reported
};

// One gloo ring all-reduce with every peer as a rank; rank 0's namespace (10.77.0.1) hosts the store.
GlooOutcome glooRound(const QString& glooProgram, const QString& prefix, std::size_t peerCount,
                      std::int64_t size) {
    std::vector<std::unique_ptr<QProcess>> ranks;
    for (std::size_t i = 0; i < peerCount; ++i)
        ranks.push_back(startInNamespace(
            prefix, i, glooProgram,
            {"--rank", QString::number(i), "--world", QString::number(peerCount), "--store-addr", "10.77.0.1",
             "--store-port", "29500", "--iface", QString("p%1%2").arg(prefix).arg(i), "--size",
             QString::number(size), "--dtype", "f16", "--timeout-ms", "600000"}));
    GlooOutcome outcome;
    outcome.complete = true;
    for (const auto& rank : ranks) {
        const QJsonObject result = readJsonLine(*rank, 660000);
        outcome.complete = outcome.complete && result.contains("seconds");
        outcome.seconds = std::max(outcome.seconds, result.value("seconds").toDouble());
        outcome.setupSeconds = std::max(outcome.setupSeconds, result.value("setup_seconds").toDouble());
    }
    for (const auto& rank : ranks)
        finish(*rank);
    return outcome;
}

// A figure measured `repeat` times on this shared machine: the median is the figure, the range shows
// the noise around it.
struct Figure {
    std::vector<double> samples;
    bool complete = true;

    double median() const {
        if (samples.empty())
            return 0.0;
        std::vector<double> sorted = samples;
        std::sort(sorted.begin(), sorted.end());
        const std::size_t middle = sorted.size() / 2;
        return sorted.size() % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2.0;
    }

    // " (median of 3: 4.81–4.95 s)" and " (INCOMPLETE)" where they apply.
    QString notes() const {
        QString text;
        if (samples.size() > 1) {
            const auto [low, high] = std::minmax_element(samples.begin(), samples.end());
            text = QString(" (median of %1: %2–%3 s)")
                       .arg(samples.size())
                       .arg(*low, 0, 'f', 2)
                       .arg(*high, 0, 'f', 2);
        }
        return complete ? text : text + " (INCOMPLETE)";
    }
};

using Once = std::function<double(bool& complete)>;

// Each configuration `repeat` times, in turn (all of them once, then all again): whatever drifts during
// a run (other load on the machine, the kernel's per-destination TCP metrics warming up) falls on every
// configuration alike, not on whichever happens to run first.
std::vector<Figure> measureInTurn(int repeat, const std::vector<Once>& configurations) {
    std::vector<Figure> figures(configurations.size());
    for (int i = 0; i < repeat; ++i) {
        for (std::size_t c = 0; c < configurations.size(); ++c) {
            if (!configurations[c])
                continue;
            bool complete = false;
            figures[c].samples.push_back(configurations[c](complete));
            figures[c].complete = figures[c].complete && complete;
        }
    }
    return figures;
}

} // namespace

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    QStringList sets{"100,100,100,100", "1000,100,100,20", "1000,500,200,100,100,50,50c,20c"};
    std::int64_t size = 18'105'474;
    std::int64_t partElements = collab::PartitionPlan::kDefaultPartElements; // the engine's parts
    QString peerProgram = QString::fromUtf8(SAHAJ_ALLREDUCE_PEER);
#ifdef SAHAJ_GLOO_PEER
    QString glooProgram = QString::fromUtf8(SAHAJ_GLOO_PEER);
#else
    QString glooProgram;
#endif
    const QString netns = QString::fromUtf8(SAHAJ_SOURCE_DIR) + "/scripts/netns/";
    const QStringList args = app.arguments();
    bool curve = true; // also time the load-balanced round with CURVE on every socket
    int repeat = 1;    // rounds per figure; the median is printed
    bool usage = args.size() % 2 == 0;
    for (int i = 1; i + 1 < args.size(); i += 2) {
        bool ok = true;
        if (args[i] == "--sets")
            sets = args[i + 1].split(';');
        else if (args[i] == "--size")
            size = args[i + 1].toLongLong(&ok);
        else if (args[i] == "--part-elements")
            partElements = args[i + 1].toLongLong(&ok);
        else if (args[i] == "--peer")
            peerProgram = args[i + 1];
        else if (args[i] == "--gloo-peer")
            glooProgram = args[i + 1];
        else if (args[i] == "--repeat")
            repeat = args[i + 1].toInt(&ok);
        else if (args[i] == "--curve")
            curve = args[i + 1] == "yes";
        else
            ok = false;
        usage = usage || !ok || size < 16 || partElements < 1 || repeat < 1 || repeat > 99;
    }
    std::vector<std::vector<PeerSpec>> parsedSets;
    try {
        for (const QString& text : sets)
            parsedSets.push_back(parseSet(text));
    } catch (const std::invalid_argument& error) {
        QTextStream(stderr) << error.what() << "\n";
        usage = true;
    }
    if (usage) {
        QTextStream(stderr) << "usage: sahaj-bench-allreduce [--sets \"100,100;1000,20c\"] [--size N >= 16] "
                               "[--part-elements N] [--curve yes|no] [--repeat N <= 99] "
                               "[--peer PATH] [--gloo-peer PATH (\"\": no gloo baseline)]\n";
        return 2;
    }
    const QString prefix = "sbench";
    // Every member declares its link's real rate, so the rounds pace their connections from it
    // (ConnectionPacer) as peers do once their bandwidth is measured.
    const QStringList paced{"--pace", "yes"};
    // Enough values for every member to aggregate some, few enough that moving them takes no time.
    constexpr std::int64_t tinySize = 4096;
    out() << "all-reduce of " << size << " values, fp16 on the wire, links shaped with tc tbf\n"
          << "sahaj: slowest member's round from receiving the group (ZeroMQ connects inside it), after one "
             "untimed round on the set's links; gloo: slowest rank's all-reduce after a warm-up (store, mesh "
             "and warm-up not timed); both with the fp32/fp16 conversions and the division. Configurations "
             "take turns, once each per repetition. Gloo has no client role: clients are ring ranks too.\n";
    if (glooProgram.isEmpty())
        out() << "no gloo baseline: sahaj-gloo-peer was not built (install libgloo-dev and reconfigure)\n";
    for (std::size_t s = 0; s < parsedSets.size(); ++s) {
        const std::vector<PeerSpec>& set = parsedSets[s];
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
        const std::vector<std::int64_t> balancedCounts =
            collab::LoadBalancer::apportion(balance.shares, size);
        // Equal spans among the members that can aggregate, for comparison.
        std::vector<double> equal;
        for (const PeerSpec& peer : set)
            equal.push_back(peer.client ? 0.0 : 1.0);
        const std::vector<std::int64_t> equalCounts = collab::LoadBalancer::apportion(equal, size);
        const auto sahaj = [&](std::int64_t values, const std::vector<std::int64_t>& counts,
                               const QStringList& extra) {
            return [&, values, counts, extra](bool& complete) {
                return round(peerProgram, prefix, set, values, partElements, counts, complete, extra);
            };
        };
        // One untimed round first, as gloo's figure comes after a warm-up all-reduce: the links' first
        // connections (ARP, the kernel's TCP metrics for each destination) are not what a collaboration's
        // thousands of rounds see.
        bool warmedUp = false;
        sahaj(size, balancedCounts, paced)(warmedUp);
        double glooSetup = 0.0;
        const Once glooOnce = [&](bool& complete) {
            const GlooOutcome outcome = glooRound(glooProgram, prefix, set.size(), size);
            complete = outcome.complete;
            glooSetup = std::max(glooSetup, outcome.setupSeconds);
            return outcome.seconds;
        };
        // The load-balanced round paced as the engine paces it; the same without pacing and with equal
        // spans, for comparison; with CURVE on every socket; gloo's ring.
        const std::vector<Figure> figures = measureInTurn(
            repeat, {sahaj(size, balancedCounts, paced), sahaj(size, balancedCounts, {}),
                     sahaj(size, equalCounts, paced),
                     curve ? sahaj(size, balancedCounts, paced + QStringList{"--curve", "yes"}) : Once{},
                     glooProgram.isEmpty() ? Once{} : glooOnce});
        const Figure& balanced = figures[0];
        const Figure& unpaced = figures[1];
        const Figure& even = figures[2];
        const Figure& secured = figures[3];
        const Figure& gloo = figures[4];
        double equalBound = 0.0;
        const double nodes = static_cast<double>(std::count(equal.begin(), equal.end(), 1.0));
        for (std::size_t i = 0; i < set.size(); ++i) {
            const double share = equal[i] / nodes;
            equalBound =
                std::max(equalBound, (1.0 + (set.size() - 2.0) * share) / bandwidths[i].bandwidth * size);
        }
        // What connecting and latency cost inside a Sahaj round: the same group on a vector that takes no
        // time to move.
        const Figure tiny = measureInTurn(
            1, {sahaj(tinySize, collab::LoadBalancer::apportion(balance.shares, tinySize), paced)})[0];
        run(netns + "teardown.sh", {prefix});

        // The ring sends and receives 2·(G−1)/G·V values through every link: the slowest link bounds it.
        double slowestLink = bandwidths.front().bandwidth;
        for (const collab::MemberBandwidth& member : bandwidths)
            slowestLink = std::min(slowestLink, member.bandwidth);
        const double peers = static_cast<double>(set.size());
        const double ringBound = 2.0 * (peers - 1.0) / peers * static_cast<double>(size) / slowestLink;

        out() << QString("set {%1} Mbit/s\n").arg(sets[static_cast<qsizetype>(s)]);
        out() << QString("  load-balanced spans: %1 s, bound %2 s, ratio %3%4\n")
                     .arg(balanced.median(), 0, 'f', 2)
                     .arg(bound, 0, 'f', 2)
                     .arg(balanced.median() / bound, 0, 'f', 3)
                     .arg(balanced.notes());
        out() << QString("  load-balanced, connections not paced: %1 s, ratio %2%3\n")
                     .arg(unpaced.median(), 0, 'f', 2)
                     .arg(unpaced.median() / bound, 0, 'f', 3)
                     .arg(unpaced.notes());
        if (curve)
            out() << QString("  load-balanced, CURVE on every socket: %1 s, ratio to the bound %2, to the "
                             "plain round %3%4\n")
                         .arg(secured.median(), 0, 'f', 2)
                         .arg(secured.median() / bound, 0, 'f', 3)
                         .arg(secured.median() / balanced.median(), 0, 'f', 3)
                         .arg(secured.notes());
        out() << QString("  equal spans:         %1 s, bound for equal spans %2 s, ratio to the "
                         "load-balanced bound %3%4\n")
                     .arg(even.median(), 0, 'f', 2)
                     .arg(equalBound, 0, 'f', 2)
                     .arg(even.median() / bound, 0, 'f', 3)
                     .arg(even.notes());
        out() << QString(
                     "  sahaj round of %1 values (connects and latency, inside the figures above): %2 s%3\n")
                     .arg(tinySize)
                     .arg(tiny.median(), 0, 'f', 3)
                     .arg(tiny.notes());
        if (!glooProgram.isEmpty()) {
            out() << QString("  gloo ring: %1 s, ratio to the load-balanced bound %2 (ring bound %3 s; setup "
                             "not timed: %4 s)%5\n")
                         .arg(gloo.median(), 0, 'f', 2)
                         .arg(gloo.median() / bound, 0, 'f', 3)
                         .arg(ringBound, 0, 'f', 2)
                         .arg(glooSetup, 0, 'f', 2)
                         .arg(gloo.notes());
            if (gloo.complete && gloo.median() > 0.0)
                out() << QString("  sahaj / gloo: %1\n").arg(balanced.median() / gloo.median(), 0, 'f', 3);
        }
        out().flush();
    }
    return 0;
}
