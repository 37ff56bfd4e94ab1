#pragma once

#include "core/security/AccessToken.h"
#include "core/security/AllowList.h"
#include "core/security/FileChangeWatch.h"
#include "core/security/InviteList.h"
#include "core/security/RateLimiter.h"
#include "core/security/RevocationFile.h"

#include <QString>

#include <optional>

namespace sahaj::security {

class PeerIdentity;

// The run's authority, on the coordinator: decides who gets an access token, by the run's policy, and
// signs it with the organiser's key. The sockets around it live elsewhere; this is the decision alone.
//
//  - open: anyone, under a rate limit per IP address and a global one (a Sybil can still make many
//    identities; see docs/security.md);
//  - allowlist:FILE: a user name and password that verify against the Argon2id hashes of FILE, with a
//    limit on attempts per user and address against guessing;
//  - invites:FILE: a single-use invite code of FILE, redeemed on success.
// Under every policy a volunteer renews its token by presenting the current one, still valid, for the
// same keys: an invite is spent once, not at every renewal. Under allowlist the user must still be on the
// list: the authority reads FILE again when its size or modification time changed, so an organiser who
// removes a user (or adds one) needs no restart, and the removed user's token ends at its expiry. A peer
// the organiser revoked (setRevocations) gets no token at all, renewals included, under every policy. The
// coordinator role is never granted.
class TokenAuthority {
public:
    enum class Policy { Open, AllowList, Invites };

    struct Options {
        QString runId;
        qint64 lifetimeSeconds = 6 * 3600;
        int openRequestsPerMinute = 60;          // all strangers together, open policy
        int openRequestsPerAddressPerMinute = 6; // strangers from one IP address, open policy
        // Password or invite guesses per user name and IP address: a guesser locks out its own address,
        // not the user (who logs in from another).
        int attemptsPerUserPerMinute = 5;
        int renewalsPerPeerPerMinute = 6; // an admitted peer renews every few hours
    };

    struct Request {
        QString username;
        QByteArray secret; // the password (allowlist) or the invite code (invites); empty for open
        PeerId peer;
        QByteArray curvePublicKey;
        AccessToken::Role role = AccessToken::Role::Node;
        std::optional<AccessToken> current; // a renewal: the token the volunteer holds
        QString address; // the IP address the request came from ("" when unknown: counted as one)
    };

    struct Decision {
        std::optional<AccessToken> token;
        QString refusal; // why not, for the volunteer and the log; empty when a token was issued
        // A refusal by a rate limit passes: the volunteer may ask again after this long. 0: it stands.
        qint64 retryAfterMs = 0;
    };

    // `organiser` signs the tokens and must outlive the authority (it is kept by reference: one key in
    // memory, owned by the coordinator).
    // "open", "allowlist:FILE" or "invites:FILE": std::invalid_argument for anything else; the errors of
    // AllowList::load / InviteList::open (naming the file and line) when FILE does not load.
    static TokenAuthority fromPolicy(const QString& policy, const PeerIdentity& organiser, Options options);

    Decision decide(const Request& request, qint64 nowMs);
    Policy policy() const { return policy_; }
    // Refuses every request from the peers `revocations` lists (read again as it changes).
    void setRevocations(RevocationFile revocations) { revocations_.emplace(std::move(revocations)); }
    // Whether the organiser revoked `peer` (the revocations file read again when it changed). The token
    // endpoint asks it for the requests the authority does not decide too: a revoked peer's token stays
    // valid until it expires, but buys it nothing more from the coordinator.
    bool revoked(const PeerId& peer);
    // Why the allowlist's or the revocations' last change could not be read (the list read before stays
    // in force), or empty. For the organiser's log.
    QString listProblem() const;

private:
    TokenAuthority(Policy policy, const PeerIdentity& organiser, Options options);
    Decision issue(const Request& request, qint64 nowSeconds) const;
    // Whose guesses a request counts among: its user name's, from its address.
    static QString guessKey(const Request& request);
    // The allowlist, read again when the file changed since it was last read.
    const AllowList& currentAllowList();

    Policy policy_;
    const PeerIdentity& organiser_;
    Options options_;
    std::optional<AllowList> allowList_;
    std::optional<FileChangeWatch> allowListWatch_;
    QString allowListProblem_;
    std::optional<RevocationFile> revocations_;
    std::optional<InviteList> invites_;
    RateLimiter strangers_;
    RateLimiter strangersByAddress_;
    RateLimiter guesses_;
    RateLimiter renewals_;
};

} // namespace sahaj::security
