// A volunteer keeps the access token it was given (SavedToken), so that a restart rejoins a password run
// without the password: VolunteerAdmission::admit against a real token endpoint (allowlist policy) over
// CURVE on loopback. With the endpoint gone, the saved token still admits; a damaged or foreign one is not
// used, and the endpoint is asked as before.
#include "core/admission/TokenServer.h"
#include "core/engine/PeerOptions.h"
#include "core/engine/SavedToken.h"
#include "core/engine/VolunteerAdmission.h"
#include "core/net/ZapHandler.h"
#include "core/security/AccessToken.h"
#include "core/security/AllowList.h"
#include "core/security/CurveKeyPair.h"
#include "core/security/PeerIdentity.h"
#include "core/security/TokenAuthority.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace sahaj;
using namespace std::chrono_literals;

namespace {

const QString kRun = QStringLiteral("bn-saved-token-1");

// The coordinator's token endpoint: its own context, its ZAP handler, the server.
class Endpoint {
public:
    Endpoint(const security::PeerIdentity& organiser, const security::CurveKeyPair& curve,
             const QString& users)
        : zap_(context_, net::ZapHandler::runDomain(kRun.toStdString())),
          server_(context_, {curve.publicKey().toStdString(), curve.secretKey().toStdString(), ""},
                  "tcp://127.0.0.1:0",
                  security::TokenAuthority::fromPolicy("allowlist:" + users, organiser, options()),
                  organiser.id(), kRun, [](const QString&) {}) {}

    const std::string& endpoint() const { return server_.endpoint(); }

private:
    static security::TokenAuthority::Options options() {
        security::TokenAuthority::Options o;
        o.runId = kRun;
        o.lifetimeSeconds = 3600;
        return o;
    }
    zmq::context_t context_;
    net::ZapHandler zap_;
    admission::TokenServer server_;
};

} // namespace

class TestSavedToken : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    const security::PeerIdentity organiser_ = security::PeerIdentity::generate();
    const security::CurveKeyPair endpointCurve_ = security::CurveKeyPair::generate();

    engine::PeerOptions volunteer(const QString& identityDir) const {
        engine::PeerOptions options;
        options.manifest.runId = kRun;
        options.manifest.organiser = organiser_.id().toHex();
        options.manifest.authCurveKey = QString::fromLatin1(endpointCurve_.publicKey().toHex());
        options.link.identity =
            std::make_shared<const security::PeerIdentity>(security::PeerIdentity::loadOrCreate(identityDir));
        options.link.role = wire::ROLE_NODE;
        return options;
    }

    static engine::VolunteerAdmission::Credentials credentials(const std::string& endpoint,
                                                               const QByteArray& secret) {
        engine::VolunteerAdmission::Credentials c;
        c.user = QStringLiteral("rahim");
        c.secret = secret;
        c.endpoint = endpoint;
        return c;
    }

private Q_SLOTS:
    void aRestartRejoinsWithTheSavedToken() {
        const QString users = dir_.filePath("users.txt");
        security::AllowList::addUser(users, "rahim", "correct horse", security::AllowList::Cost{1, 1024, 1});
        const QString identityDir = dir_.filePath("identity");
        auto endpoint = std::make_unique<Endpoint>(organiser_, endpointCurve_, users);
        const std::string address = endpoint->endpoint();

        // The first join, with the password: the token is kept, readable by its owner only.
        engine::PeerOptions first = volunteer(identityDir);
        engine::VolunteerAdmission::admit(first, identityDir, credentials(address, "correct horse"), {});
        QVERIFY(first.link.security);
        const QByteArray token = first.link.security->token;
        const engine::SavedToken saved(identityDir, kRun);
        QCOMPARE(saved.load(), std::optional<QByteArray>(token));
        QCOMPARE(QFile::permissions(saved.path()) & (QFile::ReadGroup | QFile::ReadOther),
                 QFile::Permissions());

        // A restart without the password, the endpoint gone: the saved token admits, unasked.
        endpoint.reset();
        engine::PeerOptions second = volunteer(identityDir);
        engine::VolunteerAdmission::admit(second, identityDir, credentials(address, {}), {});
        QCOMPARE(second.link.security->token, token);
        QVERIFY(second.link.security->renew); // renewed through the endpoint like any token

        // A damaged file is not used: the endpoint is asked, and without the password it refuses.
        QVERIFY(saved.save("not a token").isEmpty());
        endpoint = std::make_unique<Endpoint>(organiser_, endpointCurve_, users);
        engine::PeerOptions third = volunteer(identityDir);
        bool refused = false;
        try {
            engine::VolunteerAdmission::admit(third, identityDir, credentials(endpoint->endpoint(), {}), {});
        } catch (const engine::VolunteerAdmission::Failure& e) {
            // A refusal of a kind the app words for the volunteer, with the endpoint's reason apart.
            refused = QString(e.what()).contains("refused") &&
                      e.problem() == engine::JoinProblem::OrganiserRefused && !e.reason().empty() &&
                      QString(e.what()).endsWith(QString::fromStdString(e.reason()));
        } catch (const std::runtime_error& e) {
            QFAIL(qPrintable(QStringLiteral("a refusal of no kind: ") + e.what()));
        }
        QVERIFY(refused);

        // Another peer's keys (a copied file) are not used either.
        QVERIFY(saved.save(token).isEmpty());
        const QString otherDir = dir_.filePath("other");
        QVERIFY(QDir().mkpath(otherDir));
        QVERIFY(QFile::copy(saved.path(), engine::SavedToken(otherDir, kRun).path()));
        engine::PeerOptions other = volunteer(otherDir);
        refused = false;
        try {
            engine::VolunteerAdmission::admit(other, otherDir, credentials(endpoint->endpoint(), {}), {});
        } catch (const std::runtime_error& e) {
            refused = QString(e.what()).contains("refused");
        }
        QVERIFY(refused);
    }
};

QTEST_GUILESS_MAIN(TestSavedToken)
#include "tst_saved_token.moc"
