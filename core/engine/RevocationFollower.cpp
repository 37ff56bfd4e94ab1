#include "core/engine/RevocationFollower.h"

#include "core/dht/RecordRules.h"

namespace sahaj::engine {

RevocationFollower::RevocationFollower(dht::DhtNode& node, const QString& runId,
                                       std::shared_ptr<security::RevokedPeers> revoked,
                                       const QString& revocationsPath)
    : board_(node, runId), revoked_(std::move(revoked)) {
    if (!revocationsPath.isEmpty())
        file_.emplace(revocationsPath);
}

RevocationFollower::Update RevocationFollower::step(std::chrono::steady_clock::time_point now) {
    Update update;
    std::optional<std::set<security::PeerId>> learnt = board_.takeFetched();
    if (now >= next_) {
        next_ = now + kPeriod;
        if (file_) {
            learnt = file_->current();
            // The longest a record may live: the list outlasts a coordinator's restart by that much.
            if (!learnt->empty())
                board_.publish(*learnt, dht::RecordRules::kMaxTtl);
            if (file_->problem() != lastProblem_) {
                lastProblem_ = file_->problem();
                update.newProblem = lastProblem_;
            }
        } else {
            board_.fetchAsync();
        }
    }
    if (learnt)
        update.revoked = revoked_->add(*learnt);
    return update;
}

} // namespace sahaj::engine
