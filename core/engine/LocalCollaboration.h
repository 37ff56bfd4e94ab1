#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QProcess>
#include <QString>
#include <QStringList>

#include <deque>
#include <memory>
#include <vector>

namespace sahaj::engine {

// A collaboration on this machine's loopback, for demos: `sahaj-node run-init` writes a run for a corpus
// and a tokenizer, then a coordinator and any number of volunteers start as separate sahaj-node processes
// (real sockets, a real DHT), each logging to its own folder. `sahaj-node demo` watches them from the
// command line; `sahaj-volunteer --demo` joins them from the desktop app.
class LocalCollaboration {
public:
    struct Options {
        QString nodeProgram; // the sahaj-node executable
        QString folder;      // for the run and the peers' folders; created, must be empty
        QString corpus;
        QString tokenizer;
        QString runId = QStringLiteral("demo");
        QString config = QStringLiteral("tiny");
        qint64 targetBatch = 4096;
        double learningRate = 0.01;
        qint64 totalSteps = 100;
        // Passed to every peer (the coordinator too): timings, threads, a stop step.
        QStringList peerArguments;
        QStringList coordinatorArguments; // the coordinator's only (a country, say)
        // true: the peers' JSON lines are read through Peer::readLines(); false: they go to DIR/log.jsonl
        // (a caller that never reads them must not let their pipes fill).
        bool readOutput = false;
    };

    // How the demos train (`sahaj-node demo`, `sahaj-volunteer --demo`): one definition for both. Measured to
    // make the tiny model learn within minutes on two cores (loss 11.07 -> 7.90 in 60 steps, 4 min 24 s:
    // docs/collaboration.md): small batches, short gathering, and a peak rate LAMB takes in its stride on
    // this model (sahajBERT's 4096-sample batches at 0.01 moved the loss by 0.1 % in 10 steps).
    struct DemoTraining {
        qint64 targetBatch = 512;
        double learningRate = 0.15; // the peak: reached after two steps of warmup, then falling linearly
        qint64 gatherMs = 1500;     // how long a group leader gathers members
        // The schedule's length: where the rate has fallen to 0 and the run ends (run-init's --total-steps
        // is both). A rate held near its peak for hundreds of steps diverges (seen: `sahaj-node demo
        // --steps 300`, whose schedule is five times its steps); falling to 0 over 100 steps, it is at
        // every step at most what the measured run took.
        qint64 scheduleSteps = 100;

        // A leader may close its group after a third of the gathering time (as the measured runs did).
        qint64 minGatherMs() const { return gatherMs / 3; }
        // Options that train so: the batch, the rate, the schedule and the gathering times (peerArguments);
        // the rest as Options has them.
        Options options() const;
    };

    // One peer process and the JSON lines it printed so far.
    struct Peer {
        QString name;
        QString dir;
        std::unique_ptr<QProcess> process;
        QByteArray pending;

        std::vector<QJsonObject> readLines(); // readOutput only
        bool running() const { return process && process->state() != QProcess::NotRunning; }
    };

    // Writes the run and starts the coordinator on a free loopback port, which the run's manifest names.
    // Throws std::invalid_argument for a folder that is not empty or files that are missing,
    // std::runtime_error when run-init fails or the coordinator does not start within two minutes.
    explicit LocalCollaboration(Options options);
    // Stops every peer (stopAll()).
    ~LocalCollaboration();
    LocalCollaboration(const LocalCollaboration&) = delete;
    LocalCollaboration& operator=(const LocalCollaboration&) = delete;

    // Starts a volunteer named `name` (its folder DIR/name holds its identity and logs), with `extra`
    // arguments (--client-mode, --country, caps, a seed...). Throws std::runtime_error when it cannot start.
    Peer& addVolunteer(const QString& name, const QStringList& extra);

    const QString& manifest() const { return manifest_; }
    QString joinFile() const; // the signed join file beside the manifest: what volunteers join with
    QString coordinatorAddress() const { return coordinator_; } // "127.0.0.1:PORT" of its DHT node
    // The coordinator's model folder: the run's origin as it started, the trained model once it stopped.
    QString coordinatorModel() const;
    // Keeps the untrained model for the demos' "before and after": copies the coordinator's model, as it
    // saved it on starting (before any volunteer trains), into FOLDER/model-before, and returns that folder.
    QString keepUntrainedModel() const;
    // The coordinator first, then the volunteers in the order they were added.
    std::deque<Peer>& peers() { return peers_; }
    // SIGTERM to every peer (they leave politely and the coordinator saves), SIGKILL to any still running
    // after 30 s.
    void stopAll();

private:
    Peer& start(const QString& name, const QStringList& arguments);

    Options options_;
    QString manifest_;
    QString coordinator_;
    std::deque<Peer> peers_; // a deque: references handed out stay valid
};

} // namespace sahaj::engine
