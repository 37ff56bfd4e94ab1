#include "RecordingEngine.h"

#include <cmath>

namespace sahaj::testing {

RecordingEngine::RecordingEngine(const QString& ledgerPath) : engine::EngineFacade(ledgerPath) {}

QString RecordingEngine::join(const engine::JoinRequest& request) {
    if (const QString problem = request.problem(); !problem.isEmpty())
        return problem;
    calls << QStringLiteral("join:") + request.run;
    lastJoin = request;
    auto next = std::make_shared<engine::EngineSnapshot>(*snapshot());
    next->state = engine::EngineState::Joining;
    next->limits = request.limits;
    publish(next);
    return {};
}

void RecordingEngine::leave() {
    calls << QStringLiteral("leave");
    auto next = std::make_shared<engine::EngineSnapshot>(*snapshot());
    next->state = engine::EngineState::Offline;
    next->cause = engine::PauseCause::None;
    publish(next);
}

void RecordingEngine::pause(engine::PauseCause cause, qint64 untilMs) {
    calls << QStringLiteral("pause:") + engine::pauseCauseName(cause) +
                 (untilMs > 0 ? QStringLiteral(":") + QString::number(untilMs) : QString());
    auto next = std::make_shared<engine::EngineSnapshot>(*snapshot());
    next->state =
        cause == engine::PauseCause::Snooze ? engine::EngineState::Snoozed : engine::EngineState::Paused;
    next->cause = cause;
    next->snoozedUntilMs = cause == engine::PauseCause::Snooze ? untilMs : 0;
    publish(next);
}

void RecordingEngine::resume() {
    calls << QStringLiteral("resume");
    auto next = std::make_shared<engine::EngineSnapshot>(*snapshot());
    next->state = engine::EngineState::Training;
    next->cause = engine::PauseCause::None;
    next->snoozedUntilMs = 0;
    publish(next);
}

void RecordingEngine::finishStepThenPause() {
    calls << QStringLiteral("finish-step");
    auto next = std::make_shared<engine::EngineSnapshot>(*snapshot());
    next->finishingStep = true;
    publish(next);
}

QString RecordingEngine::setLimits(const engine::EngineLimits& limits) {
    if (const QString problem = limits.problem(); !problem.isEmpty())
        return problem;
    calls << QStringLiteral("limits:%1:%2:%3:%4")
                 .arg(limits.computePercent)
                 .arg(limits.microBatch)
                 .arg(limits.maxUploadMbps)
                 .arg(limits.maxDownloadMbps);
    auto next = std::make_shared<engine::EngineSnapshot>(*snapshot());
    next->limits = limits;
    publish(next);
    return {};
}

void RecordingEngine::checkHardware(const QString& device, int microBatch) {
    calls << QStringLiteral("hardware:%1:%2").arg(device).arg(microBatch);
    hardwareAnswer.device = device;
    hardwareAnswer.microBatch = microBatch;
    if (!holdHardwareAnswer)
        answerHardware();
}

void RecordingEngine::answerHardware() {
    Q_EMIT hardwareChecked(hardwareAnswer);
}

void RecordingEngine::show(const engine::EngineSnapshot& snapshot) {
    publish(std::make_shared<const engine::EngineSnapshot>(snapshot));
}

engine::EngineSnapshot busySnapshot(qint64 nowMs) {
    engine::EngineSnapshot s;
    s.timeMs = nowMs;
    s.state = engine::EngineState::Training;
    s.runId = QStringLiteral("sahajbert-demo");
    s.peerId = QStringLiteral("a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90");
    s.role = QStringLiteral("node");
    s.device = QStringLiteral("auto");
    s.compute = QStringLiteral("cuda core on cuda:0 (Test GPU)");
    s.localEpoch = 41;
    s.globalEpoch = 41;
    s.batchSamples = 1536;
    s.targetBatchSize = 4096;
    s.etaSeconds = 37;
    s.collaborationSamplesPerSecond = 68.5;
    s.localSamplesPerSecond = 21.25;
    s.localSamples = 480;
    s.peersOnline = 3;
    s.clientsOnline = 1;
    s.uploadBytesPerSecond = 1.5e6;
    s.downloadBytesPerSecond = 2.25e6;
    s.declaredMbps = 95.0;
    s.sessionBytesSent = 812'000'000;
    s.sessionBytesReceived = 1'240'000'000;
    s.peers = {
        {s.peerId, QStringLiteral("node"), QStringLiteral("BD"), 95.0, -1.0, 41, true},
        {QStringLiteral("b2") + QString(62, QLatin1Char('0')), QStringLiteral("node"), QStringLiteral("IN"),
         480.0, 38.5, 41, false},
        {QStringLiteral("c3") + QString(62, QLatin1Char('0')), QStringLiteral("client"), QStringLiteral("DE"),
         20.0, -1.0, 41, false},
        {QStringLiteral("d4") + QString(62, QLatin1Char('0')), QStringLiteral("coordinator"), QString(),
         1000.0, 12.0, 41, false},
    };
    for (int i = 0; i < 5; ++i) {
        engine::RoundSummary round;
        round.epoch = 37 + i;
        round.timeMs = nowMs - (4 - i) * 60'000;
        round.seconds = 4.0 + i * 0.25;
        round.bytesSent = 40'000'000;
        round.bytesReceived = 38'000'000;
        round.loss = 9.5 - 0.1 * i;
        round.complete = true;
        round.members = {{s.peers[0].peerId, QStringLiteral("node"), 0.18 + 0.01 * i, true},
                         {s.peers[1].peerId, QStringLiteral("node"), 0.62 - 0.01 * i, false},
                         {s.peers[2].peerId, QStringLiteral("client"), 0.0, false},
                         {s.peers[3].peerId, QStringLiteral("coordinator"), 0.20, false}};
        s.rounds.push_back(round);
    }
    for (std::uint64_t e = 1; e <= 41; ++e)
        s.loss.push_back({e, 11.0 - 1.8 * std::log(static_cast<double>(e))});
    return s;
}

} // namespace sahaj::testing
