#pragma once

#include "core/security/PeerId.h"

#include <QByteArray>
#include <QString>

#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <set>

namespace sahaj::dht {
class DhtNode;
struct DhtRecord;
} // namespace sahaj::dht

namespace sahaj::collab {

// Where the run's coordinator publishes the peers the organiser revoked: one signed, expiring record under
// "sahaj/<run>/revocations", its payload a wire::RevocationRecord. Only a record whose access token has the
// coordinator role counts: the organiser issues that role to its coordinator alone, so no volunteer can
// revoke anyone, nor un-revoke itself by publishing an empty list. Records that do not decode are dropped.
//
// Lookups do not block the caller: fetchAsync() starts one on the DHT's thread, takeFetched() collects
// what it found.
class RevocationBoard {
public:
    // A lookup not finished after this long is given up, and the next fetchAsync starts another.
    static constexpr std::chrono::seconds kLookupDeadline{30};

    RevocationBoard(dht::DhtNode& node, const QString& runId);

    void publish(const std::set<security::PeerId>& revoked, std::chrono::seconds ttl);
    // Starts a lookup of the coordinator's record, unless one started less than kLookupDeadline ago is
    // still under way.
    void fetchAsync();
    // The list in the coordinator's newest live record, as the last finished lookup found it; nullopt
    // when no lookup finished since the last call, or it found no such record.
    std::optional<std::set<security::PeerId>> takeFetched();

    static QByteArray encode(const std::set<security::PeerId>& revoked);
    // False for a record that is not the coordinator's, or whose payload is not a valid list.
    static bool decode(const dht::DhtRecord& record, std::set<security::PeerId>& revoked);

private:
    struct Lookup {
        std::mutex mutex;
        bool finished = false;
        std::optional<std::set<security::PeerId>> found;
    };

    dht::DhtNode& node_;
    QString key_;
    std::shared_ptr<Lookup> lookup_; // shared with the lookup's callback, which may outlive this board
    std::chrono::steady_clock::time_point lookupStarted_{};
};

} // namespace sahaj::collab
