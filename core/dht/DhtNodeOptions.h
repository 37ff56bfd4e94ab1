#pragma once

#include <QString>
#include <QStringList>

#include <chrono>
#include <cstdint>
#include <memory>

namespace sahaj::security {
class PeerIdentity;
}

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
    std::uint32_t networkId = kSahajNetworkId;
    // How often each listener asks the DHT for the key's records (see DhtNode::listen).
    std::chrono::milliseconds listenInterval{1000};
};

} // namespace sahaj::dht
