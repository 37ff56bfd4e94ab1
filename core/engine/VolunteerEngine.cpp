#include "core/engine/VolunteerEngine.h"

#include "core/engine/CollaborativePeer.h"
#include "core/engine/HardwareProbe.h"
#include "core/engine/PeerControls.h"
#include "core/engine/VolunteerAdmission.h"
#include "core/engine/VolunteerSetup.h"
#include "core/security/IdentityLock.h"
#include "core/store/ContributionLedger.h"
#include "core/store/EpochContribution.h"
#include "core/store/SqliteError.h"
#include "core/store/TransferSample.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDebug>
#include <QDir>
#include <QLockFile>

#include <algorithm>

namespace sahaj::engine {

namespace {

using namespace std::chrono_literals;

// A peer that computed nothing for this long is waiting (for a group, a state, the others), not training.
constexpr qint64 kTrainingRecencyMs = 10'000;
// The current transfer rates are the bytes of the last few seconds.
constexpr qint64 kRateWindowMs = 5'000;
// A transfer sample of the ledger covers a minute (TransferSample).
constexpr qint64 kTransferIntervalMs = 60'000;
// A milestone every this many epochs contributed (all-time, from the ledger).
constexpr qint64 kMilestoneEpochs = 10;

qint64 nowMs() {
    return QDateTime::currentMSecsSinceEpoch();
}

QString hex(const std::string& bytes) {
    return QString::fromLatin1(QByteArray::fromStdString(bytes).toHex());
}

// What a log line from the peer or its collaboration thread means for the user.
EngineEvent::Level levelOf(const QString& text) {
    static const char* const troubles[] = {"fail",     "could not", "refused",    "banned", "timed out",
                                           "excluded", "lost",      "non-finite", "did not"};
    for (const char* trouble : troubles)
        if (text.contains(QLatin1String(trouble), Qt::CaseInsensitive))
            return EngineEvent::Level::Warning;
    return EngineEvent::Level::Info;
}

// Whether the run's coordinator is among the peers `status` saw and answered this peer's last dial; true
// before any were seen (nothing says otherwise yet).
bool coordinatorAnswers(const LinkStatus& status) {
    if (!status.peers)
        return true;
    return std::any_of(status.peers->begin(), status.peers->end(), [&](const collab::PeerAnnouncement& peer) {
        return peer.coordinator && !(status.silentPeers && status.silentPeers->contains(peer.peerId));
    });
}

// The minutes of transfer the worker records in the ledger: the link's byte counters are cumulative and
// start again at 0 when a pause closes the link.
class TransferMinutes {
public:
    void observe(std::uint64_t sent, std::uint64_t received, store::ContributionLedger& ledger) {
        if (sent < lastSent_ || received < lastReceived_)
            lastSent_ = lastReceived_ = 0; // a new link after a pause
        up_ += sent - lastSent_;
        down_ += received - lastReceived_;
        lastSent_ = sent;
        lastReceived_ = received;
        if (nowMs() - startMs_ >= kTransferIntervalMs)
            flush(ledger);
    }
    void flush(store::ContributionLedger& ledger) {
        if (up_ > 0 || down_ > 0)
            ledger.recordTransfer({startMs_, static_cast<qint64>(up_), static_cast<qint64>(down_)});
        up_ = down_ = 0;
        startMs_ = nowMs();
    }
    std::uint64_t pendingSent() const { return up_; }
    std::uint64_t pendingReceived() const { return down_; }

private:
    qint64 startMs_ = nowMs();
    std::uint64_t lastSent_ = 0, lastReceived_ = 0, up_ = 0, down_ = 0;
};

} // namespace

struct VolunteerEngine::Worker {
    PeerControls controls;
    std::atomic<bool> finishStep{false}; // pause once the next step is taken
};

VolunteerEngine::VolunteerEngine(const QString& ledgerPath, QObject* parent)
    : EngineFacade(ledgerPath, parent) {
    ticker_.setInterval(1000);
    connect(&ticker_, &QTimer::timeout, this, &VolunteerEngine::update);
    ticker_.start();
}

VolunteerEngine::~VolunteerEngine() {
    if (shared_)
        shared_->controls.stop = true;
    if (worker_.joinable())
        worker_.join();
    if (hardware_.joinable())
        hardware_.join();
}

QString VolunteerEngine::join(const JoinRequest& request) {
    if (const QString problem = request.problem(); !problem.isEmpty())
        return problem;
    if (busy())
        return QStringLiteral("already in a run: leave it first");
    if (worker_.joinable())
        worker_.join(); // ended: its last message is on its way or handled
    working_ = EngineSnapshot();
    working_.device = request.device;
    working_.limits = request.limits;
    working_.state = EngineState::Joining;
    working_.detail = QStringLiteral("reading the run and asking for an access token");
    cause_ = PauseCause::None;
    untilMs_ = 0;
    leaving_ = false;
    lastComputeMs_ = 0;
    lastSamples_ = 0;
    contact_.joined(nowMs());
    transfers_.clear();
    bytesBase_[0] = bytesBase_[1] = linkBytes_[0] = linkBytes_[1] = 0;
    shared_ = std::make_shared<Worker>();
    applyLimits(request.limits);
    startWorker(request);
    log(EngineEvent::Level::Info, QStringLiteral("joining the run %1").arg(request.run.left(80)));
    update();
    return {};
}

void VolunteerEngine::startWorker(JoinRequest request) {
    workerEnded_ = false;
    const std::shared_ptr<Worker> shared = shared_;
    const QString ledgerPath = this->ledgerPath();
    worker_ = std::thread([this, shared, request = std::move(request), ledgerPath] {
        // Everything goes back to this object's thread by value; the object outlives the thread (its
        // destructor joins it).
        const auto post = [this](auto call) {
            QMetaObject::invokeMethod(this, std::move(call), Qt::QueuedConnection);
        };
        QString error;
        JoinProblem problem = JoinProblem::None;
        QString reason;
        try {
            PeerOptions options = VolunteerSetup::options(
                request, &shared->controls.stop,
                [post, this](const fetch::DownloadProgress& p) {
                    const DataDownload download{p.name,           p.done,         p.total,
                                                p.bytesPerSecond, p.etaSeconds(), !p.finished};
                    post([this, download] { workerDownload(download); });
                },
                [post, this](const QString& line) {
                    post([this, line] { log(EngineEvent::Level::Warning, line); });
                });
            options.computeThreads = request.threads;
            options.link.version = QCoreApplication::applicationVersion().toStdString();
            options.link.log = [this, post](const std::string& line) {
                post([this, text = QString::fromStdString(line)] { workerMessage(text); });
            };
            // Protocol phases are for diagnosis (a terminal, the journal), not the volunteer's event log.
            options.link.trace = [](const std::string& line) {
                qDebug().noquote() << QString::fromStdString(line);
            };
            // Two processes with one identity would be one peer id in two places.
            const std::unique_ptr<QLockFile> lock = security::IdentityLock::take(request.identityDir);
            if (!lock)
                throw std::runtime_error("the identity in " + request.identityDir.toStdString() +
                                         " is in use by another Sahaj process");
            const QString runId = options.manifest.runId;
            const Reachability reachability = options.reachability;
            const auto target = static_cast<std::uint64_t>(options.manifest.training.targetBatchSize);
            store::ContributionLedger ledger(ledgerPath);
            CollaborativePeer peer(std::move(options));
            post([this, id = QString::fromStdString(peer.peerIdHex()),
                  role = QString::fromStdString(peer.role()), runId, epoch = peer.epoch(), target,
                  compute = QString::fromStdString(peer.computePlan().summary()),
                  gpu = peer.computePlan().usesGpu(), reachability] {
                workerJoined(id, role, runId, epoch, target, compute, gpu, reachability);
            });

            TransferMinutes minutes;
            CollaborativePeer::Events events;
            events.onStatus = [&](const LinkStatus& status, std::uint64_t samples) {
                try {
                    minutes.observe(status.bytesSent, status.bytesReceived, ledger);
                } catch (const std::exception& e) {
                    post([this, text = QString::fromStdString(e.what())] {
                        log(EngineEvent::Level::Warning,
                            QStringLiteral("could not record the transfer: ") + text);
                    });
                }
                // The role and the reachability change when the computer's address does (AddressWatch).
                post([this, status, samples, sent = minutes.pendingSent(),
                      received = minutes.pendingReceived(), role = QString::fromStdString(peer.role()),
                      reachability = peer.reachability()] {
                    working_.unrecordedBytesSent = sent;
                    working_.unrecordedBytesReceived = received;
                    working_.role = role;
                    working_.reachability = reachability;
                    workerStatus(status, samples);
                });
            };
            events.onEpoch = [&](const EpochReport& report) {
                bool pausedAfter = false;
                // A loaded state ends the step as well: a peer that is catching up on the others (a
                // rejoiner whose swarm steps faster than it can fetch states) may step only by loading
                // states for a long while, and "finish this step, then pause" must not wait for ever.
                if (shared->finishStep.exchange(false)) {
                    shared->controls.paused = true;
                    pausedAfter = true;
                }
                if (!report.stateLoaded && report.localSamples > 0) {
                    double batch = 0.0;
                    for (const RoundMember& member : report.members)
                        batch += member.weight;
                    store::EpochContribution row;
                    row.timeMs = nowMs();
                    row.runId = runId;
                    row.epoch = static_cast<qint64>(report.epoch);
                    row.samples = report.localSamples;
                    row.tokens = report.localTokens;
                    row.computeSeconds = report.computeSeconds;
                    // The members' weights are what they declared when the group formed, often before the
                    // batch filled: the batch is at least the run's target.
                    batch = std::max(batch, static_cast<double>(target));
                    row.batchShare = std::clamp(static_cast<double>(report.localSamples) / batch, 0.0, 1.0);
                    row.bytesSent = static_cast<qint64>(report.bytesSent);
                    row.bytesReceived = static_cast<qint64>(report.bytesReceived);
                    row.groupSize = std::max<int>(1, static_cast<int>(report.members.size()));
                    row.role = QString::fromStdString(peer.role());
                    try {
                        ledger.recordEpoch(row);
                    } catch (const std::exception& e) {
                        post([this, text = QString::fromStdString(e.what())] {
                            log(EngineEvent::Level::Warning,
                                QStringLiteral("could not record the epoch: ") + text);
                        });
                    }
                }
                post([this, report, pausedAfter] { workerEpoch(report, pausedAfter); });
            };
            events.onMessage = [this, post](const std::string& line) {
                post([this, text = QString::fromStdString(line)] { workerMessage(text); });
            };
            peer.run(shared->controls.stop, shared->controls, events);
            minutes.flush(ledger);
        } catch (const VolunteerAdmission::Failure& e) {
            error = QString::fromStdString(e.what());
            problem = e.problem();
            reason = QString::fromStdString(e.reason());
        } catch (const std::exception& e) {
            error = QString::fromStdString(e.what());
        }
        post([this, error, problem, reason] { workerEnded(error, problem, reason); });
    });
}

void VolunteerEngine::leave() {
    if (!busy())
        return;
    leaving_ = true;
    shared_->controls.stop = true;
    cause_ = PauseCause::None;
    working_.detail = QStringLiteral("leaving the collaboration");
    log(EngineEvent::Level::Info, QStringLiteral("leaving the collaboration"));
    update();
}

void VolunteerEngine::pause(PauseCause cause, qint64 untilMs) {
    if (cause == PauseCause::None) {
        resume();
        return;
    }
    const bool changed = cause != cause_ || untilMs != untilMs_;
    cause_ = cause;
    untilMs_ = cause == PauseCause::Snooze ? untilMs : 0;
    working_.finishingStep = false;
    if (shared_) {
        shared_->finishStep = false;
        shared_->controls.paused = true;
    }
    if (changed) {
        EngineEvent event;
        event.text = QStringLiteral("paused (%1)").arg(pauseCauseName(cause));
        event.cause = cause;
        event.snoozedUntilMs = untilMs_;
        log(std::move(event));
    }
    update();
}

void VolunteerEngine::resume() {
    if (cause_ == PauseCause::None && !working_.finishingStep)
        return;
    cause_ = PauseCause::None;
    untilMs_ = 0;
    working_.finishingStep = false;
    if (shared_) {
        shared_->finishStep = false;
        shared_->controls.paused = false;
    }
    log(EngineEvent::Level::Info, QStringLiteral("resumed"));
    update();
}

void VolunteerEngine::finishStepThenPause() {
    if (!busy() || cause_ != PauseCause::None)
        return;
    shared_->finishStep = true;
    working_.finishingStep = true;
    log(EngineEvent::Level::Info, QStringLiteral("will pause after this step"));
    update();
}

QString VolunteerEngine::setLimits(const EngineLimits& limits) {
    if (const QString problem = limits.problem(); !problem.isEmpty())
        return problem;
    applyLimits(limits);
    update();
    return {};
}

void VolunteerEngine::applyLimits(const EngineLimits& limits) {
    working_.limits = limits;
    if (!shared_)
        return;
    PeerControls& controls = shared_->controls;
    controls.dutyCycle = limits.computePercent / 100.0;
    controls.microBatch = limits.microBatch;
    controls.uploadCap = limits.maxUploadMbps * 1e6 / 8.0;
    controls.downloadCap = limits.maxDownloadMbps * 1e6 / 8.0;
    controls.capsVersion.fetch_add(1);
}

void VolunteerEngine::checkHardware(const QString& device, int microBatch) {
    if (hardwareBusy_.exchange(true))
        return; // one check at a time; its answer comes soon
    if (hardware_.joinable())
        hardware_.join();
    hardware_ = std::thread([this, device, microBatch] {
        HardwareReport report = HardwareProbe::measure(device, microBatch);
        QMetaObject::invokeMethod(
            this,
            [this, report] {
                hardwareBusy_ = false;
                Q_EMIT hardwareChecked(report);
            },
            Qt::QueuedConnection);
    });
}

void VolunteerEngine::workerJoined(QString peerId, QString role, QString runId, std::uint64_t epoch,
                                   std::uint64_t target, QString compute, bool computesOnGpu,
                                   Reachability reachability) {
    working_.peerId = peerId;
    working_.compute = compute;
    working_.computesOnGpu = computesOnGpu;
    working_.role = role;
    working_.reachability = reachability;
    working_.runId = runId;
    working_.localEpoch = epoch;
    working_.targetBatchSize = target;
    working_.detail = QStringLiteral("looking for the others' progress");
    log(EngineEvent::Level::Info, QStringLiteral("joined the run %1 as a %2 (peer %3); %4")
                                      .arg(runId, role, peerId.left(16), reachability.summary()));
    update();
}

void VolunteerEngine::workerDownload(DataDownload download) {
    if (download.active)
        working_.detail = QStringLiteral("downloading the run's data");
    else
        log(EngineEvent::Level::Info,
            QStringLiteral("downloaded %1 (%2 bytes)").arg(download.name).arg(download.total));
    working_.download = std::move(download);
    update();
}

void VolunteerEngine::workerStatus(LinkStatus status, std::uint64_t localSamples) {
    const qint64 now = nowMs();
    const collab::GlobalProgress& global = status.global;
    working_.localEpoch = status.localEpoch;
    working_.globalEpoch = global.epoch;
    working_.batchSamples = global.samplesAccumulated;
    working_.targetBatchSize = global.targetBatchSize;
    working_.etaSeconds =
        global.eta ? std::max(0.0, std::chrono::duration<double>(*global.eta - global.at).count()) : -1.0;
    working_.collaborationSamplesPerSecond = global.samplesPerSecond;
    working_.peersOnline = global.peers;
    working_.clientsOnline = global.clients;
    // Out of touch while running (a pause closes the link and starts counting afresh at its end).
    if (working_.state != EngineState::Training && working_.state != EngineState::Waiting) {
        contact_.joined(now);
    } else {
        const auto sayCoordinatorLost = [&] {
            log(EngineEvent::Level::Warning,
                QStringLiteral("the run's coordinator has not answered for %1 s: training goes on with the "
                               "other peers, but no newcomer is admitted until it is back")
                    .arg(contact_.coordinatorSilentForMs(now) / 1000));
        };
        switch (contact_.observe(status.remotePeers, coordinatorAnswers(status), now)) {
        case ContactWatch::Change::Lost:
            log(EngineEvent::Level::Warning,
                QStringLiteral("lost the collaboration: no other peer heard from for %1 s; retrying")
                    .arg(contact_.silentForMs(now) / 1000));
            break;
        case ContactWatch::Change::Regained:
            log(EngineEvent::Level::Info,
                QStringLiteral("back in touch with the collaboration: %1 other peer(s)")
                    .arg(status.remotePeers));
            if (contact_.coordinatorLost())
                sayCoordinatorLost();
            break;
        case ContactWatch::Change::CoordinatorLost:
            sayCoordinatorLost();
            break;
        case ContactWatch::Change::CoordinatorRegained:
            log(EngineEvent::Level::Info, QStringLiteral("the run's coordinator answers again"));
            break;
        case ContactWatch::Change::None:
            break;
        }
    }
    working_.collaborationLost = contact_.lost();
    working_.coordinatorLost = contact_.coordinatorLost();
    working_.declaredMbps = status.bandwidthBytesPerSecond * 8.0 / 1e6;
    working_.localSamples = localSamples;

    // This peer's own rate, from its samples growing between statuses (they drop to 0 after a step).
    if (localSamples != lastSamples_) {
        if (localSamples > lastSamples_ && lastComputeMs_ > 0 && now > lastComputeMs_) {
            const double rate =
                (localSamples - lastSamples_) * 1000.0 / static_cast<double>(now - lastComputeMs_);
            working_.localSamplesPerSecond =
                working_.localSamplesPerSecond > 0 ? 0.7 * working_.localSamplesPerSecond + 0.3 * rate : rate;
        }
        lastComputeMs_ = now;
        lastSamples_ = localSamples;
    }

    // Session bytes: the links closed by pauses, plus the current one.
    if (status.bytesSent < linkBytes_[0] || status.bytesReceived < linkBytes_[1]) {
        bytesBase_[0] += linkBytes_[0];
        bytesBase_[1] += linkBytes_[1];
    }
    linkBytes_[0] = status.bytesSent;
    linkBytes_[1] = status.bytesReceived;
    working_.sessionBytesSent = bytesBase_[0] + linkBytes_[0];
    working_.sessionBytesReceived = bytesBase_[1] + linkBytes_[1];
    transfers_.emplace_back(now, working_.sessionBytesSent, working_.sessionBytesReceived);
    while (transfers_.size() > 2 && std::get<0>(transfers_.front()) < now - kRateWindowMs)
        transfers_.pop_front();
    const auto& [firstMs, firstSent, firstReceived] = transfers_.front();
    const double seconds = (now - firstMs) / 1000.0;
    working_.uploadBytesPerSecond = seconds > 0.5 ? (working_.sessionBytesSent - firstSent) / seconds : 0.0;
    working_.downloadBytesPerSecond =
        seconds > 0.5 ? (working_.sessionBytesReceived - firstReceived) / seconds : 0.0;

    working_.peers.clear();
    bool selfSeen = false;
    const std::vector<collab::PeerAnnouncement> none;
    for (const collab::PeerAnnouncement& peer : status.peers ? *status.peers : none) {
        PeerSighting sighting;
        sighting.peerId = hex(peer.peerId);
        sighting.role = peer.coordinator                    ? QStringLiteral("coordinator")
                        : peer.role == wire::ROLE_CLIENT    ? QStringLiteral("client")
                        : peer.role == wire::ROLE_AUXILIARY ? QStringLiteral("auxiliary")
                                                            : QStringLiteral("node");
        sighting.country = QString::fromStdString(peer.country);
        sighting.mbps = peer.bandwidth * status.bytesPerValue * 8.0 / 1e6;
        if (status.latencyMs)
            if (const auto found = status.latencyMs->find(peer.peerId); found != status.latencyMs->end())
                sighting.latencyMs = found->second;
        sighting.answers = !(status.silentPeers && status.silentPeers->contains(peer.peerId));
        sighting.epoch = peer.epoch;
        sighting.self = sighting.peerId == working_.peerId;
        selfSeen = selfSeen || sighting.self;
        working_.peers.push_back(std::move(sighting));
    }
    if (!selfSeen && !working_.peerId.isEmpty()) // not announced yet: the user is still on the map
        working_.peers.push_back({working_.peerId, working_.role, QString(), working_.declaredMbps, -1.0,
                                  working_.localEpoch, true});
    working_.detail = QString::fromStdString(status.lastProblem);
    update();
}

void VolunteerEngine::workerEpoch(EpochReport report, bool pausedAfter) {
    working_.localEpoch = report.epoch;
    working_.globalEpoch = std::max<std::uint64_t>(working_.globalEpoch, report.epoch);
    if (report.stateLoaded) {
        log(EngineEvent::Level::Info,
            QStringLiteral("loaded the collaboration's state at epoch %1").arg(report.epoch));
        if (pausedAfter)
            finishedStepPaused();
        update();
        return;
    }
    const double loss = report.loss > 0 ? report.loss : report.localLoss;
    if (loss > 0) {
        working_.loss.push_back({report.epoch, loss});
        if (working_.loss.size() > EngineSnapshot::kLossPoints)
            working_.loss.erase(working_.loss.begin());
    }
    if (report.members.size() >= 2) {
        RoundSummary round;
        round.epoch = report.epoch;
        round.timeMs = nowMs();
        round.seconds = report.roundSeconds;
        round.bytesSent = report.bytesSent;
        round.bytesReceived = report.bytesReceived;
        round.loss = loss;
        round.complete = report.complete;
        for (const RoundMember& member : report.members) {
            const QString id = QString::fromStdString(member.peerId);
            round.members.push_back(
                {id, QString::fromStdString(member.role), member.share, id == working_.peerId});
        }
        working_.rounds.push_back(std::move(round));
        if (working_.rounds.size() > EngineSnapshot::kRecentRounds)
            working_.rounds.erase(working_.rounds.begin());
    }
    log(EngineEvent::Level::Info,
        report.alone ? QStringLiteral("epoch %1: stepped alone (no group), loss %2")
                           .arg(report.epoch)
                           .arg(loss, 0, 'f', 4)
                     : QStringLiteral("epoch %1: averaged in a group of %2, share %3 %, loss %4")
                           .arg(report.epoch)
                           .arg(report.members.size())
                           .arg(report.share * 100.0, 0, 'f', 1)
                           .arg(loss, 0, 'f', 4));
    for (const std::string& problem : report.problems)
        log(EngineEvent::Level::Warning, QString::fromStdString(problem));
    if (report.localSamples > 0) {
        Q_EMIT ledgerChanged();
        try {
            const qint64 epochs = totals().epochsJoined;
            if (epochs > 0 && epochs % kMilestoneEpochs == 0)
                log(EngineEvent::Level::Milestone, QStringLiteral("%1 global steps contributed").arg(epochs),
                    epochs);
        } catch (const std::exception&) {
            // The milestone is a nicety; the ledger's failure was reported where it was written.
        }
    }
    if (pausedAfter)
        finishedStepPaused();
    update();
}

void VolunteerEngine::finishedStepPaused() {
    cause_ = PauseCause::User;
    working_.finishingStep = false;
    log(EngineEvent::Level::Info, QStringLiteral("finished the step; paused"));
}

void VolunteerEngine::workerMessage(QString text) {
    log(levelOf(text), text);
}

void VolunteerEngine::workerEnded(QString error, JoinProblem problem, QString problemReason) {
    if (worker_.joinable())
        worker_.join();
    workerEnded_ = true;
    shared_.reset();
    working_.state = error.isEmpty() ? EngineState::Offline : EngineState::Error;
    working_.runFinished = error.isEmpty() && !leaving_;
    working_.detail = working_.runFinished ? QStringLiteral("the run reached its last step") : error;
    working_.problem = problem;
    working_.problemReason = problemReason;
    working_.finishingStep = false;
    cause_ = PauseCause::None;
    untilMs_ = 0;
    working_.uploadBytesPerSecond = working_.downloadBytesPerSecond = 0.0;
    working_.localSamplesPerSecond = 0.0;
    working_.unrecordedBytesSent = working_.unrecordedBytesReceived = 0; // flushed as the worker ended
    leaving_ = false;
    if (error.isEmpty()) {
        log(EngineEvent::Level::Info, QStringLiteral("left the collaboration"));
    } else {
        EngineEvent event;
        event.level = EngineEvent::Level::Error;
        event.text = error;
        event.problem = problem;
        event.problemReason = problemReason;
        log(std::move(event));
    }
    Q_EMIT ledgerChanged();
    update();
}

EngineState VolunteerEngine::runningState() const {
    if (cause_ == PauseCause::Snooze)
        return EngineState::Snoozed;
    if (cause_ != PauseCause::None)
        return EngineState::Paused;
    if (working_.peerId.isEmpty())
        return EngineState::Joining;
    if (leaving_)
        return EngineState::Waiting;
    return lastComputeMs_ > 0 && nowMs() - lastComputeMs_ < kTrainingRecencyMs ? EngineState::Training
                                                                               : EngineState::Waiting;
}

void VolunteerEngine::update() {
    working_.timeMs = nowMs();
    if (busy())
        working_.state = runningState();
    working_.cause = working_.state == EngineState::Paused || working_.state == EngineState::Snoozed
                         ? cause_
                         : PauseCause::None;
    working_.snoozedUntilMs = working_.state == EngineState::Snoozed ? untilMs_ : 0;
    if (working_.state == EngineState::Paused || working_.state == EngineState::Snoozed)
        working_.uploadBytesPerSecond = working_.downloadBytesPerSecond = working_.localSamplesPerSecond =
            0.0;
    publish(std::make_shared<const EngineSnapshot>(working_));
}

} // namespace sahaj::engine
