#pragma once

#include <QByteArray>
#include <QString>

#include <chrono>
#include <cstdint>
#include <string>

namespace sahaj::net {
class SocketFactory;
}
namespace sahaj::security {
class PeerIdentity;
}

namespace sahaj::admission {

// A volunteer's question to the coordinator's token endpoint: "dial me back at this port" — whether others
// can open connections to it (ReachabilityDialer is the other side).
class ReachabilityClient {
public:
    struct Answer {
        QString observedAddress; // the address the endpoint saw this peer's request come from
        bool reachable = false;  // the endpoint's connection to observedAddress:port was accepted
        QString detail;          // why not, when not
    };

    // Asks the endpoint at `endpoint` (CURVE public key `serverCurveKey`, 32 raw bytes) to dial `port` back,
    // presenting `token` (this peer's access token for `runId`). Throws std::runtime_error when the endpoint
    // refuses, answers something else or malformed, or not within `timeout`.
    static Answer ask(const net::SocketFactory& sockets, const std::string& endpoint,
                      const std::string& serverCurveKey, const security::PeerIdentity& identity,
                      const QString& runId, const QByteArray& token, std::uint16_t port,
                      std::chrono::milliseconds timeout);
};

} // namespace sahaj::admission
