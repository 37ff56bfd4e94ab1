#include "core/engine/EngineFacade.h"

#include "core/store/ContributionLedger.h"

#include <QDateTime>

namespace sahaj::engine {

QString eventLevelName(EngineEvent::Level level) {
    switch (level) {
    case EngineEvent::Level::Info:
        return QStringLiteral("info");
    case EngineEvent::Level::Warning:
        return QStringLiteral("warning");
    case EngineEvent::Level::Error:
        return QStringLiteral("error");
    case EngineEvent::Level::Milestone:
        return QStringLiteral("milestone");
    }
    return QStringLiteral("info");
}

EngineFacade::EngineFacade(const QString& ledgerPath, QObject* parent)
    : QObject(parent), ledgerPath_(ledgerPath),
      reader_(std::make_unique<store::ContributionLedger>(ledgerPath)),
      snapshot_(std::make_shared<const EngineSnapshot>()) {
    qRegisterMetaType<sahaj::engine::EngineEvent>();
    qRegisterMetaType<sahaj::engine::HardwareReport>();
}

EngineFacade::~EngineFacade() = default;

void EngineFacade::publish(std::shared_ptr<const EngineSnapshot> snapshot) {
    snapshot_ = std::move(snapshot);
    Q_EMIT snapshotChanged();
}

void EngineFacade::log(EngineEvent::Level level, const QString& text, qint64 steps) {
    EngineEvent event;
    event.level = level;
    event.text = text;
    event.steps = steps;
    log(std::move(event));
}

void EngineFacade::log(EngineEvent event) {
    event.timeMs = QDateTime::currentMSecsSinceEpoch();
    Q_EMIT eventLogged(event);
}

store::ContributionTotals EngineFacade::totals() const {
    return reader_->totals();
}

store::ContributionTotals EngineFacade::totalsSince(qint64 sinceMs) const {
    return reader_->totalsSince(sinceMs);
}

std::vector<store::HistoryBucket> EngineFacade::history(qint64 fromMs, qint64 toMs,
                                                        store::HistoryBucket::Size size,
                                                        const QTimeZone& zone) const {
    return reader_->history(fromMs, toMs, size, zone);
}

std::vector<store::TransferSample> EngineFacade::transferSamples(qint64 fromMs, qint64 toMs) const {
    return reader_->transferSamples(fromMs, toMs);
}

store::TransferTotals EngineFacade::transferSince(qint64 sinceMs) const {
    return reader_->transferSince(sinceMs);
}

std::vector<store::EpochContribution> EngineFacade::lastEpochs(int count) const {
    return reader_->lastEpochs(count);
}

} // namespace sahaj::engine
