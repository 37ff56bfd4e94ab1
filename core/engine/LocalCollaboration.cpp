#include "core/engine/LocalCollaboration.h"

#include "core/run/JoinFile.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QThread>

#include <csignal>
#include <netinet/in.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <stdexcept>

namespace sahaj::engine {

namespace {

// Whether `port` on 127.0.0.1 can be bound now, for a socket of `type` (SOCK_STREAM, SOCK_DGRAM); with port
// 0, the port the system chose (else 0).
int bindableLoopbackPort(int type, int port) {
    const int fd = ::socket(AF_INET, type, 0);
    if (fd < 0)
        return 0;
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    address.sin_port = htons(static_cast<std::uint16_t>(port));
    int result = 0;
    if (::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0) {
        socklen_t length = sizeof address;
        if (::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) == 0)
            result = ntohs(address.sin_port);
    }
    ::close(fd);
    return result;
}

// A loopback port free for the coordinator: its DHT (UDP) and ROUTER (TCP) on the port, its token endpoint
// (TCP) on the next one. Another program may still take it before the coordinator binds: then the
// coordinator fails to start and says so.
int freeCoordinatorPort() {
    for (int attempt = 0; attempt < 50; ++attempt) {
        const int port = bindableLoopbackPort(SOCK_STREAM, 0);
        if (port > 0 && port < 65535 && bindableLoopbackPort(SOCK_DGRAM, port) == port &&
            bindableLoopbackPort(SOCK_STREAM, port + 1) == port + 1)
            return port;
    }
    throw std::runtime_error("found no free pair of loopback ports for the demo's coordinator");
}

} // namespace

std::vector<QJsonObject> LocalCollaboration::Peer::readLines() {
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

LocalCollaboration::Options LocalCollaboration::DemoTraining::options() const {
    Options options;
    options.targetBatch = targetBatch;
    options.learningRate = learningRate;
    options.totalSteps = scheduleSteps;
    options.peerArguments = {"--gather-ms", QString::number(gatherMs), "--min-gather-ms",
                             QString::number(minGatherMs())};
    return options;
}

LocalCollaboration::LocalCollaboration(Options options) : options_(std::move(options)) {
    const QString folder = QDir(options_.folder).absolutePath();
    if (QDir(folder).exists() && !QDir(folder).isEmpty())
        throw std::invalid_argument(folder.toStdString() + " is not empty: choose a new folder");
    for (const QString& file : {options_.nodeProgram, options_.corpus, options_.tokenizer})
        if (!QFileInfo(file).isFile())
            throw std::invalid_argument("missing file: " + file.toStdString());
    QDir().mkpath(folder);
    options_.folder = folder;
    manifest_ = QDir(folder).filePath(QStringLiteral("manifest.json"));
    const int port = freeCoordinatorPort();
    coordinator_ = QStringLiteral("127.0.0.1:%1").arg(port);

    QProcess init;
    init.setProcessChannelMode(QProcess::MergedChannels);
    init.start(options_.nodeProgram, {"run-init",
                                      "--out",
                                      manifest_,
                                      "--run-id",
                                      options_.runId,
                                      "--config",
                                      options_.config,
                                      "--corpus",
                                      options_.corpus,
                                      "--tokenizer",
                                      options_.tokenizer,
                                      "--target-batch",
                                      QString::number(options_.targetBatch),
                                      "--seq",
                                      "64",
                                      "--lr",
                                      QString::number(options_.learningRate),
                                      "--warmup",
                                      "2",
                                      "--total-steps",
                                      QString::number(options_.totalSteps),
                                      "--average-every",
                                      "5",
                                      "--coordinator",
                                      coordinator_});
    if (!init.waitForFinished(600000) || init.exitStatus() != QProcess::NormalExit || init.exitCode() != 0)
        throw std::runtime_error("run-init failed: " + init.readAll().toStdString());

    const QString dir = QDir(folder).filePath(QStringLiteral("coordinator"));
    QDir().mkpath(dir);
    // Every volunteer asks for its token from this computer's address: the allowance of first requests
    // per address and minute, which spreads strangers behind one address over minutes, would hold a
    // demo of more than six volunteers back for minutes (seen: 24 volunteers, most told "try again in
    // 60 s", the coordinator stepping alone meanwhile).
    Peer& coordinator = start(QStringLiteral("coordinator"),
                              QStringList{"coordinator", "--manifest", manifest_, "--listen", coordinator_,
                                          "--state-dir", dir, "--out", dir, "--joins-per-address", "10000"} +
                                  options_.peerArguments + options_.coordinatorArguments);
    // Its first line ("joined") says it is listening; without it within two minutes it failed.
    const QString out = QDir(dir).filePath(QStringLiteral("log.jsonl"));
    QElapsedTimer clock;
    clock.start();
    for (bool joined = false; !joined;) {
        if (!coordinator.running() || clock.elapsed() > 120000) {
            stopAll();
            throw std::runtime_error("the coordinator did not start; see " + dir.toStdString() + "/log.txt");
        }
        if (options_.readOutput) {
            coordinator.process->waitForReadyRead(200);
            for (const QJsonObject& line : coordinator.readLines())
                joined = joined || line["event"] == "joined";
        } else {
            coordinator.process->waitForFinished(200); // also how QProcess notices an early exit
            QFile file(out);
            joined = file.open(QIODevice::ReadOnly) && file.readAll().contains("\"joined\"");
        }
    }
}

LocalCollaboration::~LocalCollaboration() {
    stopAll();
}

QString LocalCollaboration::joinFile() const {
    return run::JoinFile::pathBeside(manifest_);
}

QString LocalCollaboration::coordinatorModel() const {
    return QDir(peers_.front().dir).filePath(QStringLiteral("model"));
}

QString LocalCollaboration::keepUntrainedModel() const {
    const QDir model(coordinatorModel());
    const QString before = QDir(options_.folder).filePath(QStringLiteral("model-before"));
    QDir().mkpath(before);
    for (const QString& name : model.entryList(QDir::Files))
        QFile::copy(model.filePath(name), QDir(before).filePath(name));
    return before;
}

LocalCollaboration::Peer& LocalCollaboration::addVolunteer(const QString& name, const QStringList& extra) {
    const QString dir = QDir(options_.folder).filePath(name);
    QDir().mkpath(dir);
    return start(name, QStringList{"volunteer", "--manifest", joinFile(), "--coordinator", coordinator_,
                                   "--identity", dir, "--out", dir} +
                           options_.peerArguments + extra);
}

LocalCollaboration::Peer& LocalCollaboration::start(const QString& name, const QStringList& arguments) {
    Peer peer;
    peer.name = name;
    peer.dir = QDir(options_.folder).filePath(name);
    peer.process = std::make_unique<QProcess>();
    peer.process->setStandardErrorFile(QDir(peer.dir).filePath(QStringLiteral("log.txt")));
    if (!options_.readOutput)
        peer.process->setStandardOutputFile(QDir(peer.dir).filePath(QStringLiteral("log.jsonl")));
    // The peers end with the process that started them, even when it is killed (SIGKILL, a crash): a
    // demo must not leave a collaboration running on the user's machine. The signal follows the thread
    // that started the child, not the process: make and destroy a LocalCollaboration on one thread, which
    // then outlives its peers.
    peer.process->setChildProcessModifier([parent = ::getpid()] {
        ::prctl(PR_SET_PDEATHSIG, SIGTERM);
        if (::getppid() != parent) // it died before the request took effect
            ::_exit(1);
    });
    peer.process->start(options_.nodeProgram, arguments);
    if (!peer.process->waitForStarted(10000))
        throw std::runtime_error("cannot start " + options_.nodeProgram.toStdString() + ": " +
                                 peer.process->errorString().toStdString());
    peers_.push_back(std::move(peer));
    return peers_.back();
}

void LocalCollaboration::stopAll() {
    for (Peer& peer : peers_)
        if (peer.running())
            peer.process->terminate(); // SIGTERM: leave politely, save
    for (Peer& peer : peers_)
        if (peer.running() && !peer.process->waitForFinished(30000)) {
            peer.process->kill();
            peer.process->waitForFinished(5000);
        }
}

} // namespace sahaj::engine
