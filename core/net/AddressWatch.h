#pragma once

#include <QString>

#include <chrono>
#include <optional>

namespace sahaj::net {

// Notices that this computer's address toward the coordinator changed (a laptop moved to another network,
// a lease renewed with a new address): a peer bound to the old address is heard by nobody, so it must bind
// and announce itself at the new one. Looks at the routing table (RouteSource) at most every
// kInterval, which costs one system call and sends nothing.
class AddressWatch {
public:
    using Clock = std::chrono::steady_clock;
    static constexpr std::chrono::seconds kInterval{5};

    // `coordinatorHost`: the numeric IPv4 address routed toward; `current`: where the peer is bound now.
    AddressWatch(QString coordinatorHost, QString current);

    // The new address when it changed since the last call (and is an address: a computer that lost its
    // route keeps the old one until it has another); nullopt otherwise, or before kInterval has passed.
    std::optional<QString> changed(Clock::time_point now = Clock::now());

    const QString& current() const { return current_; }

private:
    QString coordinatorHost_;
    QString current_;
    Clock::time_point nextLook_;
};

} // namespace sahaj::net
