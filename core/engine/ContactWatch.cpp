#include "core/engine/ContactWatch.h"

namespace sahaj::engine {

void ContactWatch::joined(qint64 nowMs) {
    lastContactMs_ = nowMs;
    lastCoordinatorMs_ = nowMs;
    lost_ = false;
    coordinatorSilent_ = false;
}

ContactWatch::Change ContactWatch::observe(std::size_t remotePeers, bool coordinatorAnswers, qint64 nowMs) {
    const bool coordinatorWasLost = coordinatorLost();
    if (coordinatorAnswers)
        lastCoordinatorMs_ = nowMs;
    coordinatorSilent_ = nowMs - lastCoordinatorMs_ >= lostAfterMs_;

    Change change = Change::None;
    if (remotePeers > 0) {
        lastContactMs_ = nowMs;
        if (lost_) {
            lost_ = false;
            change = Change::Regained;
        }
    } else if (!lost_ && nowMs - lastContactMs_ >= lostAfterMs_) {
        lost_ = true;
        change = Change::Lost;
    }
    if (change != Change::None || coordinatorLost() == coordinatorWasLost)
        return change;
    return coordinatorLost() ? Change::CoordinatorLost : Change::CoordinatorRegained;
}

} // namespace sahaj::engine
