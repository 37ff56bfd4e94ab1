#include "app/node/DemoCommand.h"

#include "app/node/CommandLine.h"
#include "app/node/DemoFiles.h"
#include "app/node/DemoFillMask.h"
#include "app/node/DemoSummary.h"
#include "app/node/StopSignalScope.h"
#include "app/node/TokenizerOption.h"
#include "app/node/UsageError.h"

#include "core/engine/LocalCollaboration.h"

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

#include <deque>
#include <iostream>
#include <memory>
#include <vector>

namespace sahaj::node {

namespace {

const QString kDefaultCorpus = QStringLiteral("build/data/demo-corpus/train.txt");
// With the demo's training (LocalCollaboration::DemoTraining), the tiny model learns in about four minutes
// on two cores.
constexpr long long kDefaultSteps = 60;

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
    const engine::LocalCollaboration::DemoTraining demo;
    parser.addOptions({
        {"peers", "Volunteers that accept connections (default 3).", "N"},
        {"clients", "Client-mode volunteers (default 1).", "M"},
        {"steps", "Global steps to train (default 60).", "K"},
        {"out", "Output folder (default: demo-run).", "DIR"},
        {"config", "Model: tiny or small (default tiny).", "NAME"},
        {"target-batch",
         QStringLiteral("Samples per global step over all peers (default %1; sahajBERT's is 4096).")
             .arg(demo.targetBatch),
         "N"},
        {"corpus", "Training text (default: the demo corpus, " + kDefaultCorpus + " or the installed one).",
         "FILE"},
        {"lr", QStringLiteral("Peak learning rate (default %1).").arg(demo.learningRate), "LR"},
        {"gather-ms",
         QStringLiteral("How long a group leader gathers members, in ms (default %1).").arg(demo.gatherMs),
         "MS"},
        {"threads", "CPU threads per peer (default 1).", "N"},
    });
    TokenizerOption::add(parser, "tokenizer.json (default: the tokenizer trained on the demo corpus, "
                                 "build/runs/tokenizer or the installed one; else the sahajBERT tokenizer in "
                                 "the shared data folder).");
}

int DemoCommand::run(const QCommandLineParser& parser) {
    const long long peers = CommandLine::integerValue(parser, "peers", 3, 1, 64);
    const long long clients = CommandLine::integerValue(parser, "clients", 1, 0, 64);
    const long long steps = CommandLine::integerValue(parser, "steps", kDefaultSteps, 1, 100000);
    const long long threads = CommandLine::integerValue(parser, "threads", 1, 1, 256);
    engine::LocalCollaboration::DemoTraining training;
    training.gatherMs = CommandLine::integerValue(parser, "gather-ms", training.gatherMs, 500, 600000);
    const QString config = parser.isSet("config") ? parser.value("config") : QStringLiteral("tiny");
    if (config != "tiny" && config != "small")
        throw UsageError("--config must be tiny or small");
    const QString out =
        QDir(parser.isSet("out") ? parser.value("out") : QStringLiteral("demo-run")).absolutePath();
    // The demo's own files (beside the executable, or installed) unless told otherwise: a fresh clone has
    // no shared data folder, and the corpus and tokenizer of the demo belong together.
    const DemoFiles demo = DemoFiles::locate();
    const QString corpus = parser.isSet("corpus")
                               ? CommandLine::existingFile("corpus", parser.value("corpus"))
                           : !demo.corpus.isEmpty() ? demo.corpus
                                                    : QDir::current().absoluteFilePath(kDefaultCorpus);
    if (!QFileInfo(corpus).isFile())
        throw UsageError("the demo corpus '" + corpus.toStdString() +
                         "' is missing: build it with scripts/demo-data.sh, or pass --corpus FILE");
    const QString tokenizer = parser.isSet("tokenizer") || demo.tokenizer.isEmpty()
                                  ? TokenizerOption::value(parser)
                                  : demo.tokenizer;
    if (QDir(out).exists() && !QDir(out).isEmpty())
        throw UsageError("--out " + out.toStdString() + " is not empty: choose a new folder");
    QDir().mkpath(out);

    // The run, its coordinator and the volunteers: separate sahaj-node processes on loopback.
    const StopSignalScope signals;
    training.targetBatch =
        CommandLine::integerValue(parser, "target-batch", training.targetBatch, 1, 1 << 30);
    training.learningRate = CommandLine::realValue(parser, "lr", training.learningRate, 1e-6, 1.0);
    // The measured run's schedule: its 60 steps ended at 0.8 of the peak rate.
    training.scheduleSteps = std::max<long long>(steps * 5, training.scheduleSteps);
    engine::LocalCollaboration::Options local = training.options();
    local.nodeProgram = QCoreApplication::applicationFilePath();
    local.folder = out;
    local.corpus = corpus;
    local.tokenizer = tokenizer;
    local.config = config;
    local.peerArguments +=
        QStringList{"--steps", QString::number(steps), "--threads", QString::number(threads)};
    local.readOutput = true;
    engine::LocalCollaboration collaboration(local);
    std::deque<engine::LocalCollaboration::Peer>& children = collaboration.peers();
    // The untrained model, for the fill-mask example at the end.
    const QString modelBefore = collaboration.keepUntrainedModel();
    const QDir coordinatorModel(collaboration.coordinatorModel());
    QElapsedTimer clock;
    clock.start();
    std::cout << "demo: coordinator on " << collaboration.coordinatorAddress().toStdString() << "; starting "
              << peers << " volunteer(s) and " << clients << " client(s); " << steps << " steps, output in "
              << out.toStdString() << std::endl;
    for (long long i = 0; i < peers + clients; ++i) {
        const bool client = i >= peers;
        const QString name =
            client ? QStringLiteral("client-%1").arg(i - peers + 1) : QStringLiteral("peer-%1").arg(i + 1);
        QStringList extra{"--seed", QString::number(i + 1)};
        if (client)
            extra << "--client-mode";
        collaboration.addVolunteer(name, extra);
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
        for (engine::LocalCollaboration::Peer& child : children) {
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
    collaboration.stopAll();

    QStringList dirs;
    for (const engine::LocalCollaboration::Peer& child : children)
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
    // What the model learned, in words: one sentence of the corpus with a word hidden, before and after.
    QString hidden;
    const QString sentence = DemoFillMask::sentence(corpus, &hidden);
    if (!sentence.isEmpty() &&
        QFileInfo::exists(coordinatorModel.filePath(QStringLiteral("model.safetensors")))) {
        std::cout << "demo: fill-mask \"" << sentence.toStdString() << "\" (hides \"" << hidden.toStdString()
                  << "\")\n  before training: "
                  << DemoFillMask::predict(local.nodeProgram, modelBefore, sentence).toStdString()
                  << "\n  after " << summary["global_steps"].toInteger() << " steps:   "
                  << DemoFillMask::predict(local.nodeProgram, coordinatorModel.path(), sentence).toStdString()
                  << std::endl;
    }
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
