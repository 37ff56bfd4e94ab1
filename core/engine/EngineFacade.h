#pragma once

#include "core/engine/EngineEvent.h"
#include "core/engine/EngineLimits.h"
#include "core/engine/EngineSnapshot.h"
#include "core/engine/HardwareReport.h"
#include "core/engine/JoinRequest.h"
#include "core/store/ContributionTotals.h"
#include "core/store/HistoryBucket.h"
#include "core/store/TransferSample.h"
#include "core/store/TransferTotals.h"

#include <QObject>
#include <QTimeZone>

#include <memory>
#include <vector>

namespace sahaj::store {
class ContributionLedger;
struct EpochContribution;
} // namespace sahaj::store

namespace sahaj::engine {

// What the desktop app drives and watches: the one door from ui/ into the engine (docs/desktop-app.md).
// Controls return at once; what they cause shows in the next snapshot and in the event log. Snapshots are
// immutable and published on the object's thread (snapshotChanged), so the UI renders without locks.
//
// The history (contribution and transfer) is read from the contribution ledger the engine records into:
// this object opens its own read connection on the same file.
//
// VolunteerEngine is the implementation that trains; the GUI tests drive the panels with a recording
// implementation of the controls over a real ledger.
class EngineFacade : public QObject {
    Q_OBJECT
public:
    // ledgerPath: the contribution ledger (created when missing). Throws store::SqliteError when it
    // cannot be opened.
    explicit EngineFacade(const QString& ledgerPath, QObject* parent = nullptr);
    ~EngineFacade() override;

    std::shared_ptr<const EngineSnapshot> snapshot() const { return snapshot_; }
    const QString& ledgerPath() const { return ledgerPath_; }

    // Joins the run (Offline or Error only; otherwise ignored with a log line). Returns the request's
    // problem (JoinRequest::problem), empty when the engine went on to join; joining itself reports
    // through the state (Joining, then Waiting/Training or Error).
    virtual QString join(const JoinRequest& request) = 0;
    // Leaves the collaboration politely (publishes the departure) and goes Offline.
    virtual void leave() = 0;
    // Stops computing and leaves the network until resume(); the current batch's samples are kept for
    // when it comes back. Snooze: pass PauseCause::Snooze and the time it ends.
    virtual void pause(PauseCause cause, qint64 untilMs = 0) = 0;
    virtual void resume() = 0;
    // Keeps computing until this peer's next global step is taken, then pauses (PauseCause::User).
    virtual void finishStepThenPause() = 0;
    // Applies new limits while running. Returns their problem, empty when applied.
    virtual QString setLimits(const EngineLimits& limits) = 0;
    // Measures this machine for the wizard, in the background: lists the devices and times a few
    // micro-batches of the model on `device`; the result comes with hardwareChecked.
    virtual void checkHardware(const QString& device, int microBatch) = 0;

    // From the ledger (this object's thread only). Throws store::SqliteError on a database failure.
    store::ContributionTotals totals() const;
    store::ContributionTotals totalsSince(qint64 sinceMs) const;
    std::vector<store::HistoryBucket> history(qint64 fromMs, qint64 toMs, store::HistoryBucket::Size size,
                                              const QTimeZone& zone) const;
    std::vector<store::TransferSample> transferSamples(qint64 fromMs, qint64 toMs) const;
    store::TransferTotals transferSince(qint64 sinceMs) const;
    std::vector<store::EpochContribution> lastEpochs(int count) const;

Q_SIGNALS:
    void snapshotChanged();
    void eventLogged(const sahaj::engine::EngineEvent& event);
    void hardwareChecked(const sahaj::engine::HardwareReport& report);
    // The ledger has new rows (an epoch or a transfer sample was recorded).
    void ledgerChanged();

protected:
    // Publishes `snapshot` (call on this object's thread) and emits snapshotChanged.
    void publish(std::shared_ptr<const EngineSnapshot> snapshot);
    void log(EngineEvent::Level level, const QString& text, qint64 steps = 0);
    // `event` as it is, stamped with the time now.
    void log(EngineEvent event);

private:
    QString ledgerPath_;
    std::unique_ptr<store::ContributionLedger> reader_;
    std::shared_ptr<const EngineSnapshot> snapshot_;
};

} // namespace sahaj::engine
