// The run's authority: who gets an access token under each admission policy, renewals, and the limits
// that keep strangers from guessing or flooding.
#include "core/security/AllowList.h"
#include "core/security/InviteList.h"
#include "core/security/PeerIdentity.h"
#include "core/security/RevocationFile.h"
#include "core/security/TokenAuthority.h"
#include "tests/common/TestFiles.h"

#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

using namespace sahaj::security;
using sahaj::test::errorOf;

namespace {

constexpr qint64 kNowMs = 1'800'000'000'000;

TokenAuthority::Request requestOf(const PeerIdentity& peer, const QString& user,
                                  const QByteArray& secret = {},
                                  const QString& address = QStringLiteral("127.0.0.1")) {
    TokenAuthority::Request request;
    request.address = address;
    request.username = user;
    request.secret = secret;
    request.peer = peer.id();
    request.curvePublicKey = QByteArray(32, '\x05');
    return request;
}

TokenAuthority::Options options() {
    TokenAuthority::Options o;
    o.runId = QStringLiteral("bn-auth-1");
    o.lifetimeSeconds = 3600;
    o.openRequestsPerMinute = 3;
    o.attemptsPerUserPerMinute = 2;
    return o;
}

} // namespace

class TestTokenAuthority : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    const PeerIdentity organiser_ = PeerIdentity::generate();
    const PeerIdentity peer_ = PeerIdentity::generate();

private Q_SLOTS:
    void openIssuesValidTokensUnderARateLimit() {
        TokenAuthority authority = TokenAuthority::fromPolicy("open", organiser_, options());
        for (int i = 0; i < 3; ++i) {
            const auto decision = authority.decide(requestOf(peer_, "anyone"), kNowMs + i);
            QVERIFY2(decision.token, qPrintable(decision.refusal));
            QCOMPARE(decision.token->check(organiser_.id(), "bn-auth-1", kNowMs / 1000), QString());
            QCOMPARE(decision.token->expiresAt() - decision.token->issuedAt(), 3600);
            QCOMPARE(decision.token->peer(), peer_.id());
        }
        QVERIFY(authority.decide(requestOf(peer_, "anyone"), kNowMs + 10).refusal.contains("too many"));
        QVERIFY(authority.decide(requestOf(peer_, "anyone"), kNowMs + 61000).token); // the window moved on
    }

    void allowListNeedsThePasswordAndLimitsGuesses() {
        const QString file = dir_.filePath("users.txt");
        AllowList::addUser(file, "rahim", "correct horse", AllowList::Cost{1, 1024, 1});
        TokenAuthority authority = TokenAuthority::fromPolicy("allowlist:" + file, organiser_, options());
        QVERIFY(authority.decide(requestOf(peer_, "rahim", "correct horse"), kNowMs).token);
        // A refusal that stands names no time to come back.
        QCOMPARE(authority.decide(requestOf(peer_, "nobody", "x"), kNowMs + 1).retryAfterMs, 0);
        QCOMPARE(authority.decide(requestOf(peer_, "rahim", "wrong"), kNowMs + 1).refusal,
                 QString("unknown user or wrong password"));
        // Two attempts a minute: the third is refused, even with the right password.
        QVERIFY(authority.decide(requestOf(peer_, "rahim", "correct horse"), kNowMs + 2)
                    .refusal.contains("too many"));
        QCOMPARE(authority.decide(requestOf(peer_, "karim", "correct horse"), kNowMs + 3).refusal,
                 QString("unknown user or wrong password"));
    }

    void anInviteIsSpentOnceAndRenewalsNeedNone() {
        const QString file = dir_.filePath("invites.txt");
        const QStringList codes = InviteList::addInvites(file, 2);
        TokenAuthority authority = TokenAuthority::fromPolicy("invites:" + file, organiser_, options());
        const auto first = authority.decide(requestOf(peer_, "rahim", codes[0].toUtf8()), kNowMs);
        QVERIFY2(first.token, qPrintable(first.refusal));
        QVERIFY(authority.decide(requestOf(peer_, "karim", codes[0].toUtf8()), kNowMs)
                    .refusal.contains("already used"));
        QCOMPARE(InviteList::open(file).unusedCount(), 1);

        // Renewal: the current token, for the same keys, user and role, and no code at all.
        TokenAuthority::Request renewal = requestOf(peer_, "rahim");
        renewal.current = first.token;
        const auto renewed = authority.decide(renewal, kNowMs + 1800 * 1000);
        QVERIFY2(renewed.token, qPrintable(renewed.refusal));
        QVERIFY(renewed.token->expiresAt() > first.token->expiresAt());
        QCOMPARE(InviteList::open(file).unusedCount(), 1);
        // Not for other keys, and not once the token has expired.
        TokenAuthority::Request stolen = renewal;
        stolen.peer = PeerIdentity::generate().id();
        QVERIFY(authority.decide(stolen, kNowMs).refusal.contains("other keys"));
        QVERIFY(authority.decide(renewal, kNowMs + 7200 * 1000).refusal.contains("cannot renew"));
        // A bad request does not spend an invite.
        TokenAuthority::Request badKey = requestOf(peer_, "rahim", codes[1].toUtf8());
        badKey.curvePublicKey = QByteArray(5, 'x');
        QVERIFY(!authority.decide(badKey, kNowMs).token);
        QCOMPARE(InviteList::open(file).unusedCount(), 1);
    }

    // A stranger who knows a user's name guesses its password: it spends the attempts of its own address,
    // and the user, from another, still logs in (keyed by the name alone, the user was locked out).
    void aGuesserLocksOutItsOwnAddressNotTheUser() {
        const QString file = dir_.filePath("guessed.txt");
        AllowList::addUser(file, "rahim", "correct horse", AllowList::Cost{1, 1024, 1});
        TokenAuthority authority = TokenAuthority::fromPolicy("allowlist:" + file, organiser_, options());
        const PeerIdentity guesser = PeerIdentity::generate();
        for (int i = 0; i < 2; ++i)
            QCOMPARE(authority.decide(requestOf(guesser, "rahim", "guess", "127.0.0.2"), kNowMs + i).refusal,
                     QString("unknown user or wrong password"));
        QVERIFY(authority.decide(requestOf(guesser, "rahim", "correct horse", "127.0.0.2"), kNowMs + 2)
                    .refusal.contains("too many attempts"));
        const auto user =
            authority.decide(requestOf(peer_, "rahim", "correct horse", "127.0.0.1"), kNowMs + 3);
        QVERIFY2(user.token, qPrintable(user.refusal));
    }

    // One address's flood spends its own allowance under the open policy, not the run's.
    void oneAddressCannotSpendTheOpenAllowance() {
        TokenAuthority::Options o = options();
        o.openRequestsPerAddressPerMinute = 2;
        TokenAuthority authority = TokenAuthority::fromPolicy("open", organiser_, o);
        for (int i = 0; i < 2; ++i)
            QVERIFY(
                authority.decide(requestOf(PeerIdentity::generate(), "flood", {}, "127.0.0.2"), kNowMs + i)
                    .token);
        for (int i = 0; i < 50; ++i) {
            const auto refused =
                authority.decide(requestOf(PeerIdentity::generate(), "flood", {}, "127.0.0.2"), kNowMs + 10);
            QVERIFY(refused.refusal.contains("from this address"));
            // It passes when the first of the two leaves the minute's window, and says so.
            QCOMPARE(refused.retryAfterMs, 60000 - 10);
        }
        const auto newcomer = authority.decide(requestOf(peer_, "newcomer", {}, "127.0.0.1"), kNowMs + 20);
        QVERIFY2(newcomer.token, qPrintable(newcomer.refusal));
        // The global limit (3 a minute) still holds whatever the addresses.
        const auto overall = authority.decide(requestOf(peer_, "newcomer", {}, "127.0.0.3"), kNowMs + 30);
        QVERIFY(overall.refusal.contains("too many requests"));
        QVERIFY(overall.retryAfterMs > 0 && overall.retryAfterMs <= 60000);
    }

    // Each renewal costs the coordinator a signature: an admitted peer renewing in a loop is held to a few
    // a minute, and another peer's renewal still goes through.
    // The organiser removes a user from the allowlist file while the run goes on: the user's renewal is
    // refused (its token ends at its expiry), a user added meanwhile gets in, and a broken edit of the file
    // keeps the list read before. Without the re-read, the removed user renewed for ever.
    void aUserRemovedFromTheAllowListRenewsNoMore() {
        const QString file = dir_.filePath("changing.txt");
        AllowList::addUser(file, "rahim", "correct horse", AllowList::Cost{1, 1024, 1});
        AllowList::addUser(file, "karim", "battery staple", AllowList::Cost{1, 1024, 1});
        TokenAuthority authority = TokenAuthority::fromPolicy("allowlist:" + file, organiser_, options());
        const PeerIdentity karim = PeerIdentity::generate();
        TokenAuthority::Request rahimRenews = requestOf(peer_, "rahim");
        rahimRenews.current = authority.decide(requestOf(peer_, "rahim", "correct horse"), kNowMs).token;
        TokenAuthority::Request karimRenews = requestOf(karim, "karim");
        karimRenews.current = authority.decide(requestOf(karim, "karim", "battery staple"), kNowMs).token;
        QVERIFY(rahimRenews.current && karimRenews.current);
        QVERIFY(authority.decide(rahimRenews, kNowMs + 1000).token);

        // Rahim's line goes; the file's time moves on as an edit a second later would move it.
        const auto rewrite = [&file](const QByteArray& text) {
            QFile out(file);
            QVERIFY(out.open(QIODevice::WriteOnly | QIODevice::Truncate));
            out.write(text);
            out.close();
            QVERIFY(out.open(QIODevice::Append));
            QVERIFY(out.setFileTime(QFileInfo(file).lastModified().addSecs(2),
                                    QFileDevice::FileModificationTime));
        };
        QFile in(file);
        QVERIFY(in.open(QIODevice::ReadOnly));
        QByteArrayList lines = in.readAll().split('\n');
        in.close();
        lines.removeIf([](const QByteArray& line) { return line.startsWith("rahim"); });
        rewrite(lines.join('\n'));
        QVERIFY(authority.decide(rahimRenews, kNowMs + 2000)
                    .refusal.contains("no longer on the run's allowlist"));
        QCOMPARE(authority.decide(requestOf(peer_, "rahim", "correct horse"), kNowMs + 2001).refusal,
                 QString("unknown user or wrong password"));
        QVERIFY(authority.decide(karimRenews, kNowMs + 2002).token);

        // A user added while the run goes on gets in without a restart.
        AllowList::addUser(file, "salma", "open sesame", AllowList::Cost{1, 1024, 1});
        const PeerIdentity salma = PeerIdentity::generate();
        QVERIFY(authority.decide(requestOf(salma, "salma", "open sesame"), kNowMs + 3000).token);

        // A broken edit: the list read before stays, and the problem is there for the log.
        rewrite("this is no allowlist line\n");
        QVERIFY(authority.decide(karimRenews, kNowMs + 4000).token);
        QVERIFY(authority.listProblem().contains("stays in force"));
    }

    // The renewal path comes first for a token holder; a revoked peer must not renew through it.
    void aRevokedPeerGetsNoTokenNorARenewal() {
        const QString file = dir_.filePath("revoked.txt");
        TokenAuthority authority = TokenAuthority::fromPolicy("open", organiser_, options());
        authority.setRevocations(RevocationFile(file)); // no file yet: nobody revoked
        const PeerIdentity other = PeerIdentity::generate();
        TokenAuthority::Request renews = requestOf(peer_, "rahim");
        renews.current = authority.decide(requestOf(peer_, "rahim"), kNowMs).token;
        QVERIFY(renews.current);

        QFile out(file);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(peer_.id().toHex().toLatin1() + " # flooded the run, 2026-12-06\n");
        out.close();
        QCOMPARE(authority.decide(renews, kNowMs + 1000).refusal,
                 QString("the run's organiser revoked this peer"));
        QCOMPARE(authority.decide(requestOf(peer_, "rahim"), kNowMs + 1001).refusal,
                 QString("the run's organiser revoked this peer"));
        QVERIFY(authority.decide(requestOf(other, "karim"), kNowMs + 1002).token);
    }

    void renewalsAreLimitedPerPeer() {
        TokenAuthority authority = TokenAuthority::fromPolicy("open", organiser_, options());
        const PeerIdentity other = PeerIdentity::generate();
        TokenAuthority::Request mine = requestOf(peer_, "rahim");
        mine.current = authority.decide(requestOf(peer_, "rahim"), kNowMs).token;
        TokenAuthority::Request theirs = requestOf(other, "karim");
        theirs.current = authority.decide(requestOf(other, "karim"), kNowMs).token;
        QVERIFY(mine.current && theirs.current);
        for (int i = 0; i < TokenAuthority::Options{}.renewalsPerPeerPerMinute; ++i)
            QVERIFY(authority.decide(mine, kNowMs + 1 + i).token);
        QVERIFY(authority.decide(mine, kNowMs + 100).refusal.contains("too many renewals"));
        QVERIFY(authority.decide(theirs, kNowMs + 101).token);
    }

    void neverTheCoordinatorRoleNorABadName() {
        TokenAuthority authority = TokenAuthority::fromPolicy("open", organiser_, options());
        TokenAuthority::Request request = requestOf(peer_, "rahim");
        request.role = AccessToken::Role::Coordinator;
        QVERIFY(authority.decide(request, kNowMs).refusal.contains("coordinator role"));
        QVERIFY(!authority.decide(requestOf(peer_, "no spaces please"), kNowMs).token);
    }

    void policiesAreParsedStrictly() {
        QVERIFY(errorOf([&] {
                    TokenAuthority::fromPolicy("closed", organiser_, options());
                }).contains("open, allowlist:FILE or invites:FILE"));
        QVERIFY(errorOf([&] {
                    TokenAuthority::fromPolicy("allowlist:", organiser_, options());
                }).contains("open, allowlist:FILE or invites:FILE"));
        QVERIFY(!errorOf([&] {
                     TokenAuthority::fromPolicy("invites:" + dir_.filePath("absent"), organiser_, options());
                 }).isEmpty());
        TokenAuthority::Options noRun = options();
        noRun.runId.clear();
        QVERIFY(errorOf([&] { TokenAuthority::fromPolicy("open", organiser_, noRun); }).contains("run id"));
    }
};

QTEST_GUILESS_MAIN(TestTokenAuthority)
#include "tst_token_authority.moc"
