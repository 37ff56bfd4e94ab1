#include "app/node/DemoCommand.h"

#include "app/node/CommandLine.h"
#include "app/node/DemoSummary.h"
#include "app/node/StopSignalScope.h"
#include "app/node/TokenizerOption.h"
#include "app/node/UsageError.h"

#include "core/run/JoinFile.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSaveFile>
#include <QThread>

#include <iostream>
#include <memory>
#include <vector>

namespace sahaj::node {

namespace {

const QString kDefaultCorpus = QStringLiteral("build/data/demo-corpus/train.txt");

// One peer process of the demo and the JSON lines it printed so far.
struct Child {
    QString name;
    QString dir;
    std::unique_ptr<QProcess> process;
    QByteArray pending;

    std::vector<QJsonObject> readLines() {
        std::vector<QJsonObject> lines;
        pending += process->readAllStandardOutput();
        for (qsizetype end; (end = pending.indexOf('\n')) >= 0;) {
            const QJsonDocument document = QJsonDocument::fromJson(pending.left(end));
            pending.remove(0, end + 1);
            if (document.isObject())
                lines.push_back(document.object());
        }
        return lines;
    }
    bool running() const { return process->state() != QProcess::NotRunning; }
};

std::unique_ptr<QProcess> start(const QStringList& arguments, const QString& errorLog) {
    auto process = std::make_unique<QProcess>();
    process->setStandardErrorFile(errorLog);
    process->start(QCoreApplication::applicationFilePath(), arguments);
    if (!process->waitForStarted(10000))
        throw std::runtime_error("cannot start " + QCoreApplication::applicationFilePath().toStdString() +
                                 ": " + process->errorString().toStdString());
    return process;
}

void stopAll(std::vector<Child>& children) {
    for (Child& child : children)
        if (child.running())
            child.process->terminate(); // SIGTERM: leave politely, save
    for (Child& child : children)
        if (child.running() && !child.process->waitForFinished(30000))
            child.process->kill();
}

} // namespace

QString DemoCommand::description() const {
    return QStringLiteral(
        "Run a whole collaboration on this machine: a coordinator and N volunteers plus M client-mode\n"
        "volunteers, each a separate sahaj-node process, meeting over a DHT and averaging over ZeroMQ on\n"
        "loopback. They train the tiny model on the demo corpus (scripts/demo-corpus.sh) for K global\n"
        "steps; each step prints one line (loss, group, shares, round time). Everything goes to --out:\n"
        "the manifest, a folder per peer (log, epochs.jsonl, summary.json), the coordinator's checkpoint\n"
        "and metrics, and summary.json for the whole run. Exits 0 when every volunteer reached step K with\n"
        "the same parameters.");
}

void DemoCommand::addOptions(QCommandLineParser& parser) const {
    parser.addOptions({
        {"peers", "Volunteers that accept connections (default 3).", "N"},
        {"clients", "Client-mode volunteers (default 1).", "M"},
        {"steps", "Global steps to train (default 10).", "K"},
        {"out", "Output folder (default: demo-run).", "DIR"},
        {"config", "Model: tiny or small (default tiny).", "NAME"},
        {"target-batch", "Samples per global step over all peers (default 4096, as sahajBERT).", "N"},
        {"corpus", "Training text (default: " + kDefaultCorpus + ").", "FILE"},
        {"lr", "Peak learning rate (default 0.01).", "LR"},
        {"gather-ms", "How long a group leader gathers members, in ms (default 3000).", "MS"},
        {"threads", "CPU threads per peer (default 1).", "N"},
    });
    TokenizerOption::add(parser,
                         "tokenizer.json (default: the sahajBERT tokenizer in the shared data folder).");
}

int DemoCommand::run(const QCommandLineParser& parser) {
    const long long peers = CommandLine::integerValue(parser, "peers", 3, 1, 64);
    const long long clients = CommandLine::integerValue(parser, "clients", 1, 0, 64);
    const long long steps = CommandLine::integerValue(parser, "steps", 10, 1, 100000);
    const long long threads = CommandLine::integerValue(parser, "threads", 1, 1, 256);
    const long long gatherMs = CommandLine::integerValue(parser, "gather-ms", 3000, 500, 600000);
    const QString config = parser.isSet("config") ? parser.value("config") : QStringLiteral("tiny");
    if (config != "tiny" && config != "small")
        throw UsageError("--config must be tiny or small");
    const QString out =
        QDir(parser.isSet("out") ? parser.value("out") : QStringLiteral("demo-run")).absolutePath();
    const QString corpus = parser.isSet("corpus")
                               ? CommandLine::existingFile("corpus", parser.value("corpus"))
                               : QDir::current().absoluteFilePath(kDefaultCorpus);
    if (!QFileInfo(corpus).isFile())
        throw UsageError("the demo corpus '" + corpus.toStdString() +
                         "' is missing: build it with scripts/demo-corpus.sh, or pass --corpus FILE");
    const QString tokenizer = TokenizerOption::value(parser);
    if (QDir(out).exists() && !QDir(out).isEmpty())
        throw UsageError("--out " + out.toStdString() + " is not empty: choose a new folder");
    QDir().mkpath(out);

    // The run: the manifest the coordinator reads, and the signed join file beside it for the volunteers.
    const QString manifest = QDir(out).filePath("manifest.json");
    {
        QProcess init;
        init.setProcessChannelMode(QProcess::MergedChannels);
        init.start(QCoreApplication::applicationFilePath(),
                   {"run-init",
                    "--out",
                    manifest,
                    "--run-id",
                    "demo",
                    "--config",
                    config,
                    "--corpus",
                    corpus,
                    "--tokenizer",
                    tokenizer,
                    "--target-batch",
                    QString::number(CommandLine::integerValue(parser, "target-batch", 4096, 1, 1 << 30)),
                    "--seq",
                    "64",
                    "--lr",
                    QString::number(CommandLine::realValue(parser, "lr", 0.01, 1e-6, 1.0)),
                    "--warmup",
                    "2",
                    "--total-steps",
                    QString::number(std::max<long long>(steps * 5, 100)),
                    "--average-every",
                    "5",
                    "--coordinator",
                    "127.0.0.1:4600"});
        if (!init.waitForFinished(600000) || init.exitCode() != 0)
            throw std::runtime_error("run-init failed: " + init.readAll().toStdString());
    }

    const StopSignalScope signals;
    std::vector<Child> children;
    const QStringList timing{
        "--steps",         QString::number(steps),        "--gather-ms", QString::number(gatherMs),
        "--min-gather-ms", QString::number(gatherMs / 3), "--threads",   QString::number(threads)};
    const QString coordinatorDir = QDir(out).filePath("coordinator");
    QDir().mkpath(coordinatorDir);
    children.push_back({"coordinator",
                        coordinatorDir,
                        start(QStringList{"coordinator", "--manifest", manifest, "--listen", "127.0.0.1:0",
                                          "--state-dir", coordinatorDir, "--out", coordinatorDir} +
                                  timing,
                              QDir(coordinatorDir).filePath("log.txt")),
                        {}});
    // The coordinator's first line says where its DHT listens.
    int dhtPort = 0;
    QElapsedTimer clock;
    clock.start();
    while (dhtPort == 0) {
        if (!children.front().running() || clock.elapsed() > 120000 || StopSignalScope::requested()) {
            stopAll(children);
            throw std::runtime_error("the coordinator did not start; see " +
                                     QDir(coordinatorDir).filePath("log.txt").toStdString());
        }
        children.front().process->waitForReadyRead(200);
        for (const QJsonObject& line : children.front().readLines())
            if (line["event"] == "joined")
                dhtPort = line["dht_port"].toInt();
    }
    std::cout << "demo: coordinator on 127.0.0.1:" << dhtPort << "; starting " << peers
              << " volunteer(s) and " << clients << " client(s); " << steps << " steps, output in "
              << out.toStdString() << std::endl;
    for (long long i = 0; i < peers + clients; ++i) {
        const bool client = i >= peers;
        const QString name =
            client ? QStringLiteral("client-%1").arg(i - peers + 1) : QStringLiteral("peer-%1").arg(i + 1);
        const QString dir = QDir(out).filePath(name);
        QDir().mkpath(dir);
        QStringList arguments{"volunteer",
                              "--manifest",
                              run::JoinFile::pathBeside(manifest), // the signed join file run-init wrote
                              "--coordinator",
                              QStringLiteral("127.0.0.1:%1").arg(dhtPort),
                              "--identity",
                              dir,
                              "--out",
                              dir,
                              "--seed",
                              QString::number(i + 1)};
        if (client)
            arguments << "--client-mode";
        children.push_back({name, dir, start(arguments + timing, QDir(dir).filePath("log.txt")), {}});
    }

    // Live progress: one line per global step, from the first volunteer's view.
    const auto volunteersRunning = [&] {
        for (std::size_t i = 1; i < children.size(); ++i)
            if (children[i].running())
                return true;
        return false;
    };
    const qint64 limitMs = 300000 + steps * 120000;
    while (volunteersRunning() && !StopSignalScope::requested() && clock.elapsed() < limitMs) {
        for (Child& child : children) {
            // Also how QProcess notices that a child ended (without an event loop).
            if (child.running())
                child.process->waitForFinished(50);
            for (const QJsonObject& line : child.readLines()) {
                if (&child != &children[1] || line["event"] != "epoch")
                    continue;
                QStringList shares;
                for (const QJsonValue& member : line["members"].toArray())
                    shares << QStringLiteral("%1 %2")
                                  .arg(member["id"].toString().left(6))
                                  .arg(member["share"].toDouble(), 0, 'f', 2);
                std::cout << QStringLiteral("step %1/%2  loss %3  group %4  round %5 s  shares [%6]%7")
                                 .arg(line["epoch"].toInteger())
                                 .arg(steps)
                                 .arg(line["loss"].toDouble(), 0, 'f', 4)
                                 .arg(line["members"].toArray().size())
                                 .arg(line["round_seconds"].toDouble(), 0, 'f', 2)
                                 .arg(shares.join(", "))
                                 .arg(line["state_loaded"].toBool() ? " (state loaded)" : "")
                                 .toStdString()
                          << std::endl;
            }
        }
    }
    const bool interrupted = StopSignalScope::requested() || volunteersRunning();
    stopAll(children);

    QStringList dirs;
    for (const Child& child : children)
        dirs << child.dir;
    QJsonObject summary = DemoSummary::build(dirs);
    const bool equal = DemoSummary::parametersEqual(summary);
    summary.insert("parameters_equal", equal);
    QSaveFile file(QDir(out).filePath("summary.json"));
    if (!file.open(QIODevice::WriteOnly) || file.write(QJsonDocument(summary).toJson()) < 0 || !file.commit())
        throw std::runtime_error(file.fileName().toStdString() + ": " + file.errorString().toStdString());

    const QJsonArray loss = summary["loss"].toArray();
    std::cout << "demo: " << summary["global_steps"].toInteger() << " global steps";
    if (!loss.isEmpty())
        std::cout << ", loss " << loss.first()["loss"].toDouble() << " -> " << loss.last()["loss"].toDouble();
    std::cout << "; parameters " << (equal ? "equal on every peer" : "DIFFER between peers")
              << "; summary in " << file.fileName().toStdString() << std::endl;
    if (summary.contains("efficiency")) {
        const QJsonObject efficiency = summary["efficiency"].toObject();
        std::cout << QStringLiteral(
                         "demo: collaboration efficiency (compute time / wall time of the volunteers "
                         "after their first step) %1, lowest peer %2 (ratio to the bound 1.0: %1); "
                         "per step and peer: computing %3 s, averaging %4 s")
                         .arg(efficiency["compute_over_wall"].toDouble(), 0, 'f', 3)
                         .arg(efficiency["lowest_peer"].toDouble(), 0, 'f', 3)
                         .arg(efficiency["compute_per_epoch_s"].toDouble(), 0, 'f', 2)
                         .arg(efficiency["averaging_per_epoch_s"].toDouble(), 0, 'f', 3)
                         .toStdString()
                  << std::endl;
    }
    return equal && !interrupted && summary["global_steps"].toInteger() >= steps ? 0 : 1;
}

} // namespace sahaj::node
