#pragma once

#include "core/engine/CollaborationLink.h"
#include "core/engine/ContactWatch.h"
#include "core/engine/EngineFacade.h"
#include "core/engine/EpochReport.h"

#include <QTimer>

#include <atomic>
#include <deque>
#include <memory>
#include <thread>

namespace sahaj::engine {

struct PeerControls;

// The engine that trains: the EngineFacade (docs/desktop-app.md) over one CollaborativePeer. join() starts a
// worker thread that sets the peer up (run, identity, data, token) and runs its training loop; the controls
// reach that loop through atomics (PeerControls), and what it reports comes back to this object's thread by
// value, where it is merged into the next snapshot (published every second and at each change). The worker
// records every epoch and every minute of transfer in the contribution ledger through its own connection.
class VolunteerEngine : public EngineFacade {
    Q_OBJECT
public:
    explicit VolunteerEngine(const QString& ledgerPath, QObject* parent = nullptr);
    // Leaves the collaboration (publishing the departure) and waits for the worker threads.
    ~VolunteerEngine() override;

    QString join(const JoinRequest& request) override;
    void leave() override;
    void pause(PauseCause cause, qint64 untilMs = 0) override;
    void resume() override;
    void finishStepThenPause() override;
    QString setLimits(const EngineLimits& limits) override;
    void checkHardware(const QString& device, int microBatch) override;

    // Whether a worker is still running (joining, training, paused or leaving).
    bool busy() const { return worker_.joinable() && !workerEnded_; }

private:
    struct Worker; // what the worker thread shares with this object: controls and flags, all atomic

    void startWorker(JoinRequest request);
    // On this object's thread, from the worker:
    void workerJoined(QString peerId, QString role, QString runId, std::uint64_t epoch, std::uint64_t target,
                      QString compute, bool computesOnGpu, Reachability reachability);
    void workerStatus(LinkStatus status, std::uint64_t localSamples);
    void workerDownload(DataDownload download);
    // "Finish this step, then pause" took effect: the step ended (or a loaded state ended it).
    void finishedStepPaused();
    void workerEpoch(EpochReport report, bool pausedAfter);
    void workerMessage(QString text);
    // `problem`: the error's kind where the UI words it (VolunteerAdmission::Failure), with its reason.
    void workerEnded(QString error, JoinProblem problem = JoinProblem::None, QString problemReason = {});
    void update(); // publishes the working snapshot
    void applyLimits(const EngineLimits& limits);
    EngineState runningState() const;

    std::shared_ptr<Worker> shared_;
    std::thread worker_;
    bool workerEnded_ = true;
    std::thread hardware_;
    std::atomic<bool> hardwareBusy_{false};

    EngineSnapshot working_; // the next snapshot, changed on this object's thread only
    PauseCause cause_ = PauseCause::None;
    qint64 untilMs_ = 0;
    bool leaving_ = false;
    qint64 lastComputeMs_ = 0; // when this peer last computed a micro-batch (its samples grew)
    std::uint64_t lastSamples_ = 0;
    ContactWatch contact_; // whether other peers are still heard from
    // (time, bytes sent, bytes received) of recent statuses: the current rates, over a few seconds.
    std::deque<std::tuple<qint64, std::uint64_t, std::uint64_t>> transfers_;
    std::uint64_t bytesBase_[2] = {0, 0}; // session bytes of links closed by a pause
    std::uint64_t linkBytes_[2] = {0, 0}; // the current link's bytes
    std::uint64_t epochsThisSession_ = 0;
    QTimer ticker_;
};

} // namespace sahaj::engine
