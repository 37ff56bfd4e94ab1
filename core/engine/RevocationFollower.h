#pragma once

#include "core/collab/RevocationBoard.h"
#include "core/security/PeerId.h"
#include "core/security/RevocationFile.h"
#include "core/security/RevokedPeers.h"

#include <QString>

#include <chrono>
#include <memory>
#include <optional>
#include <vector>

namespace sahaj::dht {
class DhtNode;
}

namespace sahaj::engine {

// How a peer follows the organiser's revocations (docs/security.md, "Revocation"). The coordinator reads
// the organiser's file and publishes its list every kPeriod; every other peer looks the coordinator's
// record up as often, without blocking. Each newly revoked peer goes into the shared RevokedPeers, whose
// records the DHT's reader refuses from then on, and is returned once by step(), for the caller to refuse
// its handshakes and messages as well.
class RevocationFollower {
public:
    static constexpr std::chrono::seconds kPeriod{15};

    // `revocationsPath`: the organiser's file, on the coordinator; empty on every other peer. Throws
    // std::runtime_error naming the file and line when it does not load.
    RevocationFollower(dht::DhtNode& node, const QString& runId,
                       std::shared_ptr<security::RevokedPeers> revoked, const QString& revocationsPath);

    struct Update {
        std::vector<security::PeerId> revoked; // the peers revoked since the last step
        // Why the file's last change could not be read (the list read before stays in force), once per
        // problem; empty otherwise.
        QString newProblem;
    };

    // Publishes or looks up when due (the file is looked at then only, not at every step).
    Update step(std::chrono::steady_clock::time_point now);

private:
    collab::RevocationBoard board_;
    std::shared_ptr<security::RevokedPeers> revoked_;
    std::optional<security::RevocationFile> file_;
    QString lastProblem_;
    std::chrono::steady_clock::time_point next_{};
};

} // namespace sahaj::engine
