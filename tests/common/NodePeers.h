#pragma once

// sahaj-node coordinators and volunteers as long-running processes, for the multi-process collaboration
// tests: each one logs to files in its own folder, where the tests read its JSON lines afterwards.

#include "tests/common/NodeProcess.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTest>

#include <algorithm>
#include <memory>
#include <vector>

namespace sahaj::test {

// A run of the tiny model on `corpus` for the collaboration tests (`sahaj-node run-init`, 64-token
// sequences, 100 total steps, the coordinator's address a placeholder the volunteers override), with the
// run's own learning rate, warm-up, batch and averaging period; `extra` adds options. The signed join
// file lands beside `out` as NAME.join.
inline NodeRun initTinyRun(const QString& out, const QString& runId, const QString& corpus,
                           const QString& tokenizer, const QString& targetBatch, const QString& lr,
                           const QString& warmup, const QString& averageEvery,
                           const QStringList& extra = {}) {
    return runNode(QStringList{"run-init",
                               "--out",
                               out,
                               "--run-id",
                               runId,
                               "--config",
                               "tiny",
                               "--corpus",
                               corpus,
                               "--tokenizer",
                               tokenizer,
                               "--target-batch",
                               targetBatch,
                               "--seq",
                               "64",
                               "--lr",
                               lr,
                               "--warmup",
                               warmup,
                               "--total-steps",
                               "100",
                               "--average-every",
                               averageEvery,
                               "--coordinator",
                               "127.0.0.1:4600"} +
                   extra);
}

// The JSON objects of a JSON-lines file (lines that are not objects are skipped).
inline std::vector<QJsonObject> readJsonLines(const QString& path) {
    std::vector<QJsonObject> lines;
    QFile file(path);
    if (file.open(QIODevice::ReadOnly))
        while (!file.atEnd()) {
            const QJsonDocument document = QJsonDocument::fromJson(file.readLine());
            if (document.isObject())
                lines.push_back(document.object());
        }
    return lines;
}

// A text file's whole content ("" when it cannot be read): a peer's log, to show when a check fails.
inline QString readText(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
}

inline QJsonObject readJsonObject(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(file.readAll()).object();
}

struct NodePeer {
    QString dir;
    std::unique_ptr<QProcess> process;
};

// Starts sahaj-node with `arguments`; its output goes to LOG.out and LOG.err. `environment` ("NAME=value")
// is added to the test's own.
inline std::unique_ptr<QProcess> launchNode(const QStringList& arguments, const QString& log,
                                            const QStringList& environment = {}) {
    auto process = std::make_unique<QProcess>();
    if (!environment.isEmpty()) {
        QProcessEnvironment variables = QProcessEnvironment::systemEnvironment();
        for (const QString& entry : environment)
            variables.insert(entry.section('=', 0, 0), entry.section('=', 1));
        process->setProcessEnvironment(variables);
    }
    process->setStandardOutputFile(log + ".out");
    process->setStandardErrorFile(log + ".err");
    process->start(nodeExecutable(), arguments);
    if (!process->waitForStarted())
        qFatal("sahaj-node did not start");
    return process;
}

// Starts sahaj-node with `arguments` as a peer whose folder `dir` (created) holds its logs (dir/log.out,
// dir/log.err); `environment` as for launchNode.
inline NodePeer startNode(const QString& dir, const QStringList& arguments,
                          const QStringList& environment = {}) {
    QDir().mkpath(dir);
    return NodePeer{dir, launchNode(arguments, dir + "/log", environment)};
}

// A coordinator's arguments for the collaboration tests: the run `manifest`, listening on loopback, its state
// and outputs in `dir`.
inline QStringList coordinatorArguments(const QString& manifest, const QString& dir) {
    return {"coordinator", "--manifest", manifest, "--listen", "127.0.0.1:0",
            "--state-dir", dir,          "--out",  dir};
}

// A volunteer's arguments for the collaboration tests: the run's join file, the coordinator's DHT address,
// its keys and outputs in `dir`, `steps` epochs, and its data order `seed`.
inline QStringList volunteerArguments(const QString& join, const QString& bootstrap, const QString& dir,
                                      int steps, int seed) {
    return {
        "volunteer", "--manifest", join,      "--coordinator",        bootstrap, "--identity",         dir,
        "--out",     dir,          "--steps", QString::number(steps), "--seed",  QString::number(seed)};
}

// The "127.0.0.1:PORT" DHT address a coordinator printed in its "joined" line to LOG.out, or "" when it
// printed none within a minute.
inline QString coordinatorAddress(const QString& log) {
    for (int i = 0; i < 600; ++i) {
        QTest::qWait(100);
        for (const QJsonObject& line : readJsonLines(log + ".out"))
            if (line["event"] == "joined")
                return QStringLiteral("127.0.0.1:%1").arg(line["dht_port"].toInt());
    }
    return {};
}

// Waits for every process to exit by itself; kills the one that did not and returns false.
inline bool finishNodes(const std::vector<NodePeer*>& peers, int timeoutMs) {
    QElapsedTimer clock;
    clock.start();
    for (NodePeer* peer : peers) {
        const int left = static_cast<int>(std::max<qint64>(1000, timeoutMs - clock.elapsed()));
        if (!peer->process->waitForFinished(left)) {
            peer->process->kill();
            peer->process->waitForFinished();
            return false;
        }
    }
    return true;
}

// SIGTERM, as a user's Ctrl-C would; SIGKILL if it does not leave within a minute.
inline void stopNode(NodePeer& peer) {
    if (peer.process->state() != QProcess::NotRunning) {
        peer.process->terminate();
        if (!peer.process->waitForFinished(60000))
            peer.process->kill();
    }
}

} // namespace sahaj::test
