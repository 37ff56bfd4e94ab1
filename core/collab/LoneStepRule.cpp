#include "core/collab/LoneStepRule.h"

namespace sahaj::collab {

LoneStepRule::Decision LoneStepRule::decide(std::uint64_t epoch, std::size_t othersAt,
                                            std::size_t othersBehind, Clock::time_point now) {
    Decision decision;
    if (othersAt + othersBehind == 0)
        return decision;
    if (!aloneSince_ || aloneSince_->first != epoch) {
        aloneSince_.emplace(epoch, now);
        decision.firstWait = true;
    }
    decision.stepAlone = now - aloneSince_->second >= patience_;
    return decision;
}

} // namespace sahaj::collab
