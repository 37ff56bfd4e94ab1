#pragma once

#include "core/engine/GradientAttack.h"

#include <QString>

namespace sahaj::engine {

struct PeerOptions;

// What a hostile volunteer lies about, for testing a run's defences (`sahaj-node volunteer --attack
// KIND[,KIND...]`): at most one lie about what it sends as a member (its gradient, its state-round parts or
// its sample counts), and any of the lies of its other roles: its progress records (future-epoch), as an
// aggregator (equivocate), as a leader (split-plans) and as a donor (fake-state). So one volunteer can lie
// in every role at once, as BTARD's attackers may. An honest peer never uses it.
class AttackPlan {
public:
    // Throws std::invalid_argument naming the unknown kind, or the two lies about what it sends.
    static AttackPlan parse(const QString& kinds);

    // Sets the options each lie needs, in the peer and its link.
    void applyTo(PeerOptions& options) const;

    GradientAttack::Kind sent() const { return sent_; }

private:
    GradientAttack::Kind sent_ = GradientAttack::Kind::None;
    bool futureEpoch_ = false;
    bool equivocate_ = false;
    bool wrongMean_ = false;
    bool splitPlans_ = false;
    bool fakeState_ = false;
};

} // namespace sahaj::engine
