#include "core/engine/ContactWatch.h"

namespace sahaj::engine {

void ContactWatch::joined(qint64 nowMs) {
    lastContactMs_ = nowMs;
    lost_ = false;
}

ContactWatch::Change ContactWatch::observe(std::size_t remotePeers, qint64 nowMs) {
    if (remotePeers > 0) {
        lastContactMs_ = nowMs;
        if (!lost_)
            return Change::None;
        lost_ = false;
        return Change::Regained;
    }
    if (lost_ || nowMs - lastContactMs_ < lostAfterMs_)
        return Change::None;
    lost_ = true;
    return Change::Lost;
}

} // namespace sahaj::engine
