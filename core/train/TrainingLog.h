#pragma once

#include "core/train/TrainingStepReport.h"

#include <QFile>
#include <QJsonObject>
#include <QString>

#include <cstdint>
#include <filesystem>
#include <optional>

namespace sahaj::train {

// The per-step record of a training run: one JSON object per line (log.jsonl), written and flushed after
// every step so that a crash loses nothing that happened before it. Numbers are written with the shortest
// representation that reads back to the same double, so two runs can be compared exactly.
class TrainingLog {
public:
    // Starts an empty log (keepUpToStep empty), or continues one after a resume: records of steps after
    // keepUpToStep (written after the checkpoint the run resumes from, and about to be redone) and torn
    // lines are dropped. Throws std::runtime_error naming the file when it cannot be written.
    TrainingLog(const std::filesystem::path& file, std::optional<std::int64_t> keepUpToStep);

    void append(const TrainingStepReport& report);

    static QJsonObject toJson(const TrainingStepReport& report);
    // One line of key=value fields, stable for scripts:
    // "step=3/6 loss=... mlm_loss=... sop_loss=... mlm_acc=... sop_acc=... lr=... grad_norm=...
    //  samples/s=... tokens/s=..." (plus " skipped=non-finite-gradient" when the update was skipped).
    static QString progressLine(const TrainingStepReport& report);

private:
    QFile file_;
};

} // namespace sahaj::train
