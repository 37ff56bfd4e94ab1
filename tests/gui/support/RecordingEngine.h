#pragma once

#include "core/engine/EngineFacade.h"

#include <QStringList>
#include <QTemporaryDir>

#include <memory>

namespace sahaj::testing {

// The engine facade as the GUI tests drive it: every control call is recorded (and changes the state the
// way the engine would, so that the widgets see the consequence in the next snapshot), the snapshots are
// the ones a test gives, and the history comes from a real contribution ledger in a temporary folder,
// which the test fills through ledger().
class RecordingEngine : public engine::EngineFacade {
public:
    explicit RecordingEngine(const QString& ledgerPath);

    // "join:<run>", "leave", "pause:<cause>[:<untilMs>]", "resume", "finish-step",
    // "limits:<percent>:<batch>:<up>:<down>"
    QStringList calls;
    engine::JoinRequest lastJoin;

    QString join(const engine::JoinRequest& request) override;
    void leave() override;
    void pause(engine::PauseCause cause, qint64 untilMs = 0) override;
    void resume() override;
    void finishStepThenPause() override;
    QString setLimits(const engine::EngineLimits& limits) override;
    // Records "hardware:<device>:<batch>" and answers at once with `hardwareAnswer` (device and batch
    // filled in from the call).
    void checkHardware(const QString& device, int microBatch) override;
    engine::HardwareReport hardwareAnswer;
    // When set, checkHardware only records the call; answerHardware() answers it later (a measurement
    // that takes a while, as a real one does).
    bool holdHardwareAnswer = false;
    void answerHardware();

    // Publishes a snapshot (and emits snapshotChanged), as the engine does every second.
    void show(const engine::EngineSnapshot& snapshot);
    void emitEvent(engine::EngineEvent::Level level, const QString& text) { log(level, text); }
    void emitLedgerChanged() { Q_EMIT ledgerChanged(); }
};

// A training snapshot with figures in every field: three peers in three countries, five rounds, a loss
// curve. Tests change what they check.
engine::EngineSnapshot busySnapshot(qint64 nowMs);

} // namespace sahaj::testing
