#include "app/node/CoordinatorCommand.h"

#include "app/node/CommandLine.h"
#include "app/node/PeerAddress.h"
#include "app/node/PeerAdmission.h"
#include "app/node/PeerCommandSupport.h"
#include "app/node/UsageError.h"

#include <QDir>

namespace sahaj::node {

QString CoordinatorCommand::description() const {
    return QStringLiteral(
        "Run the coordinator of a collaboration. It is the DHT node volunteers bootstrap from (UDP on the\n"
        "--listen port) and an aggregator that accepts connections (TCP on the same port). It keeps the\n"
        "model in step with the volunteers (averaging weight 0), saves the state to --state-dir every K\n"
        "global steps and when it stops (state.snapshot, model/ in Hugging Face layout, checkpoint.json),\n"
        "resumes from it when restarted, serves it to newcomers, and appends one line of metrics per\n"
        "global step to STATE-DIR/metrics.jsonl. It is the run's authority: with the organiser's keys\n"
        "(--organiser-key) it serves the token endpoint (TCP, the --listen port + 1) where volunteers get\n"
        "access tokens by the --auth policy; only peers with a valid token are heard, over CURVE-encrypted\n"
        "connections. With --serve-data DIR the token endpoint also serves the run's shards and tokenizer\n"
        "found in DIR to admitted volunteers (their mirror of last resort). SIGINT or SIGTERM saves and "
        "stops.");
}

void CoordinatorCommand::addOptions(QCommandLineParser& parser) const {
    PeerCommandSupport::addOptions(parser);
    PeerAdmission::addCoordinatorOptions(parser);
    parser.addOptions({
        {"listen",
         "IPV4:PORT for the DHT (UDP) and the aggregator (TCP) (default: the manifest's first "
         "coordinator address). Port 0: any free ports (printed in the first line).",
         "ADDR"},
        {"state-dir", "Folder for checkpoints and metrics (required).", "DIR"},
        {"checkpoint-every", "Save the state every K global steps (default 5).", "K"},
    });
}

int CoordinatorCommand::run(const QCommandLineParser& parser) {
    const QString stateDir = QDir(CommandLine::requiredValue(parser, "state-dir")).absolutePath();
    engine::PeerOptions options = PeerCommandSupport::options(parser, stateDir, false);
    if (!parser.isSet("listen") && options.manifest.coordinators.isEmpty())
        throw UsageError("the manifest names no coordinator address: pass --listen IPV4:PORT");
    const PeerAddress listen = PeerAddress::parse(
        "listen", parser.isSet("listen") ? parser.value("listen") : options.manifest.coordinators.first(),
        true);
    options.trains = false;
    options.stateDir = stateDir;
    options.checkpointEvery = CommandLine::integerValue(parser, "checkpoint-every", 5, 1, 1'000'000);
    options.link.role = wire::ROLE_NODE;
    options.link.listenEndpoint = "tcp://" + listen.toString().toStdString();
    options.link.dhtBindAddress = listen.host;
    options.link.dhtPort = listen.port;
    options.link.bootstrap.clear(); // the coordinator is where the network starts
    QDir().mkpath(stateDir);
    const auto endpoint = PeerAdmission::admitCoordinator(
        parser, options, PeerCommandSupport::identityDir(parser, stateDir), parser.value("manifest"), listen);
    return PeerCommandSupport::run(std::move(options), QStringLiteral("coordinator"),
                                   parser.isSet("out") ? parser.value("out") : QString(),
                                   QDir(stateDir).filePath("metrics.jsonl"));
}

} // namespace sahaj::node
