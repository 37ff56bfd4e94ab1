#include "core/engine/AttackPlan.h"

#include "core/engine/PeerOptions.h"

#include <QStringList>

#include <stdexcept>

namespace sahaj::engine {

AttackPlan AttackPlan::parse(const QString& kinds) {
    using Kind = GradientAttack::Kind;
    AttackPlan plan;
    for (const QString& name : kinds.split(',', Qt::SkipEmptyParts)) {
        const std::optional<Kind> kind = GradientAttack::fromName(name.trimmed());
        if (!kind)
            throw std::invalid_argument(
                ("an attack is one of " + GradientAttack::names() + ", not '" + name.trimmed() + "'")
                    .toStdString());
        switch (*kind) {
        case Kind::None:
            break;
        case Kind::FutureEpoch:
            plan.futureEpoch_ = true;
            break;
        case Kind::Equivocate:
            plan.equivocate_ = true;
            break;
        case Kind::WrongMean:
            plan.wrongMean_ = true;
            break;
        case Kind::SplitPlans:
            plan.splitPlans_ = true;
            break;
        case Kind::FakeState:
            plan.fakeState_ = true;
            break;
        default: // what it sends as a member: one lie at a time
            if (plan.sent_ != Kind::None && plan.sent_ != *kind)
                throw std::invalid_argument(
                    ("at most one of negate, random, negative-moments, heavy-state, inflated-samples and "
                     "always-ready: they change the same message, got '" +
                     kinds + "'")
                        .toStdString());
            plan.sent_ = *kind;
        }
    }
    return plan;
}

void AttackPlan::applyTo(PeerOptions& options) const {
    options.attack = sent_;
    options.fakeState = fakeState_;
    options.link.publishedEpochLead = futureEpoch_ ? GradientAttack::kFutureEpochLead : 0;
    options.link.claimedSamples = GradientAttack::claimedSamples(sent_);
    options.link.equivocate = equivocate_;
    if (wrongMean_)
        options.link.allReduce.alterReplies = GradientAttack::alterEveryReply;
    options.link.matchmaking.splitPlans = splitPlans_;
}

} // namespace sahaj::engine
