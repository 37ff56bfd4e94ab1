#pragma once

#include "core/dht/RecordAdmission.h"
#include "core/dht/RunClock.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>

namespace sahaj::security {
class AccessToken;
class PeerIdentity;
} // namespace sahaj::security

namespace sahaj::dht {

struct DhtNodeOptions {
    // Sahaj nodes form their own DHT network, apart from OpenDHT's public one (network id 0): a node
    // answers only nodes with the same id ("SHAJ" in ASCII).
    static constexpr std::uint32_t kSahajNetworkId = 0x5348414A;

    // A numeric IPv4 or IPv6 address; the node binds that one address family only. "127.0.0.1" keeps
    // tests on loopback; "0.0.0.0" listens on every IPv4 interface.
    QString bindAddress = QStringLiteral("127.0.0.1");
    // UDP port; 0 lets the system pick a free one (DhtNode::port() reports it).
    std::uint16_t port = 0;
    // "host:port" (IPv6 as "[addr]:port") of the coordinator and any other known nodes; retried until
    // the node is connected. Empty for the first node of a network.
    QStringList bootstrap;
    // Signs what put() publishes; a node that only reads and relays (a bootstrap node) needs none.
    std::shared_ptr<const security::PeerIdentity> identity;
    // Set for a run that admits peers by token: records without a valid token of their owner are neither
    // read nor stored (RecordReader), and put() sends `credential` (this peer's access token, wire form;
    // DhtNode::setCredential replaces it when the token is renewed) in every record.
    std::optional<RecordAdmission> admission;
    // Keep each owner's newest record's issue time against this clock (DhtNode::freshestRecordOffsetsMs):
    // for a node that looks for a run to join, which tells the user when the clock is off.
    bool watchClock = false;
    // The run's time (net::CoordinatorClock::now): records are stamped and judged by it (DhtNode::now).
    // Called on any of the node's threads. Empty: this computer's clock.
    RunClock clock;
    QByteArray credential;
    // Called with the checked token of every admitted record a get or listen reads (on OpenDHT's thread,
    // or the caller's: keep it short and thread-safe): how the ZAP handler learns whom to admit.
    std::function<void(const security::AccessToken&)> onToken;
    std::uint32_t networkId = kSahajNetworkId;
    // What this node stores for others, of every value type, Sahaj records or not: OpenDHT refuses values
    // past these (its defaults, 64 MiB and 2^30 keys, are no bound for a volunteer's machine). A run of a
    // thousand peers publishes some three thousand records of a few KiB (docs/security.md).
    static constexpr std::size_t kDefaultMaxStoreBytes = 32u << 20;
    static constexpr std::size_t kDefaultMaxStoreKeys = 16384;
    std::size_t maxStoreBytes = kDefaultMaxStoreBytes;
    std::size_t maxStoreKeys = kDefaultMaxStoreKeys;
    // How often each listener asks the DHT for the key's records (see DhtNode::listen).
    std::chrono::milliseconds listenInterval{1000};
};

} // namespace sahaj::dht
