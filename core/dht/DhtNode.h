#pragma once

#include "core/dht/DhtLookup.h"
#include "core/dht/DhtNodeOptions.h"
#include "core/dht/DhtRecord.h"
#include "core/dht/RunClock.h"

#include <QByteArray>
#include <QString>

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace dht {
class DhtRunner; // OpenDHT's
}

namespace sahaj::dht {

class OwnerKeyQuota;
class RecordReader;
class RecordSubscription;

// A node of Sahaj's DHT (OpenDHT underneath) for discovery and short-lived records. Keys are strings,
// namespaced by the caller ("sahaj/<run>/progress"); under a key each peer has one record, which its
// next put() replaces. Every record is signed by its owner (DhtNodeOptions::identity) and carries its
// expiry; readers drop expired, unsigned, forged and malformed records, counting the invalid ones.
//
// Records are announced once to the nodes responsible for the key and kept there until
// RecordRules::kMaxTtl; a record that must outlive a node's churn is republished by its owner (as
// progress records are, every few seconds).
//
// All methods may be called from any thread. Callbacks (listen) run on OpenDHT's thread: keep
// them short, never throw from them, and hand the records over to the caller's own thread (a blocking
// get() called from a callback would only return at its timeout).
class DhtNode {
public:
    using ListenToken = std::uint64_t;
    using RecordCallback = std::function<void(const DhtRecord&)>;
    using RecordsCallback = std::function<void(std::vector<DhtRecord>)>;

    // Binds the UDP socket and starts OpenDHT's threads. Throws std::invalid_argument for a malformed
    // bind or bootstrap address or a listen interval that is not positive, std::runtime_error when the
    // socket cannot be bound.
    explicit DhtNode(DhtNodeOptions options);
    // Leaves the network and joins OpenDHT's threads: no callback runs after it returns.
    ~DhtNode();
    DhtNode(const DhtNode&) = delete;
    DhtNode& operator=(const DhtNode&) = delete;

    // The bound UDP port (the system's choice when DhtNodeOptions::port is 0).
    std::uint16_t port() const;
    // Nodes in the routing table known to answer (good or dubious): 0 until the node is connected.
    unsigned connectedNodeCount() const;
    // The addresses ("host:port") of the nodes in the routing table now: what a node that restarts can ping
    // to find the same network again (KnownDhtNodes).
    std::vector<QString> knownNodeAddresses() const;

    // Publishes this node's record under `key`, replacing its previous one there; readers see it until
    // `ttl` has passed. Made before the node is connected (connectedNodeCount() == 0), it reaches only
    // this node's own storage: publish again once connected. Throws std::invalid_argument for a payload over
    // RecordEnvelope::kMaxPayloadBytes or a ttl outside 1 s..RecordRules::kMaxTtl, std::logic_error when the
    // node has no identity.
    void put(const QString& key, const QByteArray& payload, std::chrono::seconds ttl);
    // Waits until every put() made so far has been stored by the network or has failed, for at most
    // `timeout`. Returns whether none is left: a peer that leaves waits here for its departure records to go
    // out before the node shuts down (puts still in flight at destruction are dropped).
    bool waitForPuts(std::chrono::milliseconds timeout);
    // The access token put() sends from now on (a renewed one); records already published keep theirs
    // until their owner publishes them again.
    void setCredential(QByteArray credential);

    // The live records under `key`, one per owner (its newest), ordered by owner: those that arrived
    // before the lookup finished or `timeout` passed, whichever came first.
    std::vector<DhtRecord> get(const QString& key, std::chrono::milliseconds timeout);
    // The same without blocking: the lookup runs on OpenDHT's thread, and the handle says what has come
    // so far (RecordLookup takes it).
    std::shared_ptr<const DhtLookup> lookUp(const QString& key);

    // Calls `callback` with each live record under `key` (those there now, then each new or replacing
    // record), found by a get every DhtNodeOptions::listenInterval. Expiry is not announced: a listener
    // drops records at their expiresAt.
    //
    // Polling, not OpenDHT's listen: OpenDHT 2.4 keys a listener's cache by value id and reports a value
    // replaced in place only when its sequence number grows, which travels only with OpenDHT's own
    // (X.509) signatures; a listen would also make this node's gets answer from that stale cache.
    ListenToken listen(const QString& key, RecordCallback callback);
    // Stops a listener. When it returns the callback is not running and will not run again; the callback
    // itself may call it. Unknown tokens are ignored.
    void cancelListen(ListenToken token);

    // Values refused as invalid (forged, malformed, implausible), read or offered for storage, so far.
    std::uint64_t rejectedRecords() const;
    // What this node stores for the network now, of every value type: bytes and values.
    struct StoredValues {
        std::size_t bytes = 0;
        std::size_t values = 0;
    };
    StoredValues storedValues() const;

    // RecordReader::freshestOffsetsMs of the records this node has read (DhtNodeOptions::watchClock): a sign
    // of this computer's clock.
    std::vector<std::int64_t> freshestRecordOffsetsMs() const;

    // The run's time, by which this node stamps and judges records (DhtNodeOptions::clock). Whatever compares
    // times with records' (a declaration's expiration, a progress record's measurement) reads this clock.
    std::chrono::system_clock::time_point now() const { return clock_(); }

private:
    // `done` (may be empty) receives the records when the lookup finishes, on OpenDHT's thread.
    std::shared_ptr<DhtLookup> startGet(const QString& key, RecordsCallback done);
    void poll(const std::shared_ptr<RecordSubscription>& subscription);
    void pollListeners();
    void bootstrapAgainIfAlone();

    DhtNodeOptions options_;
    RunClock clock_;
    std::vector<std::pair<std::string, std::string>> bootstrap_; // host, port: options_.bootstrap, parsed
    std::chrono::steady_clock::time_point nextBootstrap_{};      // the poller thread's own
    mutable std::mutex credentialMutex_; // guards options_.credential, which a renewal replaces
    std::mutex putsMutex_;               // guards putsInFlight_, which the runner's callbacks count down
    std::condition_variable putsDone_;
    int putsInFlight_ = 0;
    std::shared_ptr<RecordReader> reader_;
    std::shared_ptr<OwnerKeyQuota> quota_;
    std::unique_ptr<::dht::DhtRunner> runner_;

    std::mutex listenersMutex_; // guards the members below
    std::map<ListenToken, std::shared_ptr<RecordSubscription>> listeners_;
    ListenToken nextListenToken_ = 1;
    bool stopping_ = false;
    std::condition_variable wakePoller_;
    std::thread poller_; // last: started once everything it uses exists
};

} // namespace sahaj::dht
