#include "core/security/TokenAuthority.h"

#include "core/security/PeerIdentity.h"
#include "core/security/Username.h"

#include <algorithm>
#include <stdexcept>

namespace sahaj::security {

TokenAuthority::TokenAuthority(Policy policy, const PeerIdentity& organiser, Options options)
    : policy_(policy), organiser_(organiser), options_(std::move(options)),
      strangers_(options_.openRequestsPerMinute, 60000, 1),
      strangersByAddress_(options_.openRequestsPerAddressPerMinute, 60000),
      guesses_(options_.attemptsPerUserPerMinute, 60000),
      renewals_(options_.renewalsPerPeerPerMinute, 60000) {
    if (options_.runId.isEmpty())
        throw std::invalid_argument("the token authority needs the run id");
    if (options_.lifetimeSeconds < 60 || options_.lifetimeSeconds > 30 * 24 * 3600)
        throw std::invalid_argument("an access token lives between a minute and 30 days");
}

TokenAuthority TokenAuthority::fromPolicy(const QString& policy, const PeerIdentity& organiser,
                                          Options options) {
    if (policy == QLatin1String("open"))
        return TokenAuthority(Policy::Open, organiser, std::move(options));
    const qsizetype colon = policy.indexOf(':');
    const QString kind = policy.left(colon);
    const QString file = colon < 0 ? QString() : policy.mid(colon + 1);
    if (colon < 0 || file.isEmpty() ||
        (kind != QLatin1String("allowlist") && kind != QLatin1String("invites")))
        throw std::invalid_argument(
            QStringLiteral("the admission policy must be open, allowlist:FILE or invites:FILE, got '%1'")
                .arg(policy.left(200))
                .toStdString());
    if (kind == QLatin1String("allowlist")) {
        TokenAuthority authority(Policy::AllowList, organiser, std::move(options));
        authority.allowListWatch_.emplace(file);
        authority.allowList_ = AllowList::load(file);
        return authority;
    }
    TokenAuthority authority(Policy::Invites, organiser, std::move(options));
    authority.invites_ = InviteList::open(file);
    return authority;
}

TokenAuthority::Decision TokenAuthority::issue(const Request& request, qint64 nowSeconds) const {
    Decision decision;
    try {
        decision.token =
            AccessToken::issue(options_.runId, request.username, request.peer, request.curvePublicKey,
                               request.role, nowSeconds, nowSeconds + options_.lifetimeSeconds, organiser_);
    } catch (const std::invalid_argument& e) {
        decision.refusal = QString::fromUtf8(e.what());
    }
    return decision;
}

QString TokenAuthority::guessKey(const Request& request) {
    // A user name holds no line break (Username::problem), so the key is unambiguous.
    return request.username + QLatin1Char('\n') + request.address;
}

const AllowList& TokenAuthority::currentAllowList() {
    if (!allowListWatch_->changed())
        return *allowList_;
    try {
        allowList_ = AllowList::load(allowListWatch_->path());
        allowListProblem_.clear();
    } catch (const std::exception& e) {
        // A half-edited or broken file must not lock every user out: the list read before stays.
        allowListProblem_ =
            QString::fromUtf8(e.what()) + QStringLiteral(" (the list read before stays in force)");
    }
    return *allowList_;
}

QString TokenAuthority::listProblem() const {
    const QString revocations = revocations_ ? revocations_->problem() : QString();
    if (allowListProblem_.isEmpty() || revocations.isEmpty())
        return allowListProblem_ + revocations;
    return allowListProblem_ + QStringLiteral("; ") + revocations;
}

namespace {

// A refusal by `limiter`, which passes: says when, in words and in retryAfterMs.
TokenAuthority::Decision limited(const RateLimiter& limiter, const QString& key, qint64 nowMs,
                                 const QString& what) {
    const qint64 wait = std::max<qint64>(1000, limiter.retryAfterMs(key, nowMs));
    return {std::nullopt, QStringLiteral("%1: try again in %2 s").arg(what).arg((wait + 999) / 1000), wait};
}

} // namespace

bool TokenAuthority::revoked(const PeerId& peer) {
    return revocations_ && revocations_->current().contains(peer);
}

TokenAuthority::Decision TokenAuthority::decide(const Request& request, qint64 nowMs) {
    const qint64 now = nowMs / 1000;
    if (request.role == AccessToken::Role::Coordinator)
        return {std::nullopt, QStringLiteral("the coordinator role is not granted to volunteers")};
    if (const QString problem = Username::problem(request.username.toUtf8()); !problem.isEmpty())
        return {std::nullopt, problem};
    // Before any other rule: a revoked peer's renewal must not slip through the renewal path.
    if (revoked(request.peer))
        return {std::nullopt, QStringLiteral("the run's organiser revoked this peer")};

    // A renewal: the holder of a valid token for these very keys, user and role gets a fresh one.
    if (request.current) {
        const AccessToken& current = *request.current;
        if (const QString invalid = current.check(organiser_.id(), options_.runId, now); !invalid.isEmpty())
            return {std::nullopt, QStringLiteral("cannot renew: ") + invalid};
        if (current.peer() != request.peer || current.curvePublicKey() != request.curvePublicKey ||
            current.username() != request.username || current.role() != request.role)
            return {std::nullopt,
                    QStringLiteral("cannot renew: the token was issued for other keys, user or role")};
        // Only token holders get this far, so the keys are few; each renewal costs a signature.
        if (!renewals_.allow(request.peer.toHex(), nowMs))
            return limited(renewals_, request.peer.toHex(), nowMs, QStringLiteral("too many renewals"));
        // A user the organiser removed keeps its token until it expires, and gets no other.
        if (policy_ == Policy::AllowList && !currentAllowList().contains(current.username()))
            return {std::nullopt,
                    QStringLiteral("cannot renew: user '%1' is no longer on the run's allowlist")
                        .arg(current.username())};
        return issue(request, now);
    }

    switch (policy_) {
    case Policy::Open:
        // One address's flood spends its own allowance, not the run's.
        if (!strangersByAddress_.allow(request.address, nowMs))
            return limited(strangersByAddress_, request.address, nowMs,
                           QStringLiteral("too many requests from this address"));
        if (!strangers_.allow(QStringLiteral("*"), nowMs))
            return limited(strangers_, QStringLiteral("*"), nowMs, QStringLiteral("too many requests"));
        return issue(request, now);
    case Policy::AllowList:
        if (!guesses_.allow(guessKey(request), nowMs))
            return limited(guesses_, guessKey(request), nowMs,
                           QStringLiteral("too many attempts for this user"));
        if (!currentAllowList().verify(request.username, request.secret))
            return {std::nullopt, QStringLiteral("unknown user or wrong password")};
        return issue(request, now);
    case Policy::Invites:
        if (!guesses_.allow(guessKey(request), nowMs))
            return limited(guesses_, guessKey(request), nowMs,
                           QStringLiteral("too many attempts for this user"));
        // The token is made (every field checked) before the invite is spent on it.
        if (Decision decision = issue(request, now);
            !decision.token || invites_->redeem(QString::fromUtf8(request.secret)))
            return decision;
        return {std::nullopt, QStringLiteral("unknown or already used invite code")};
    }
    return {std::nullopt, QStringLiteral("no admission policy")};
}

} // namespace sahaj::security
