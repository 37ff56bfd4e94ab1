#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace sahaj::net {

// Caps how fast the kernel sends on each TCP connection of an all-reduce round (SO_MAX_PACING_RATE), so
// that this peer's upload leaves evenly instead of in bursts at whatever rate the congestion control has
// guessed. Why: behind a shaping router (tc tbf in bench/, a home router's buffer on the Internet) a
// burst fills the uplink's queue, and the acknowledgements of everything this peer downloads wait behind
// it; the peers sending to it then stall, and the round falls behind the load balancer's bound. BBR is
// the worst case: a shaper's burst allowance makes it estimate many times the link's rate. Each
// connection is capped at a multiple of the whole link's rate (kHeadroom), not a
// fraction of it: flows still share the link among themselves as TCP does, and a member whose link is
// faster than it declared can still show it (the sum of its flows is not capped). docs/collaboration.md
// has the figures.
//
// libzmq hands out no descriptor for a connection, and its socket monitor reports connections only as
// they are made (members may connect to this ROUTER before this member's round begins), so the pacer
// finds them where the kernel lists this process's descriptors: connected TCP sockets whose local port
// is the ROUTER's (accepted from the members), or whose remote end is an aggregator's endpoint (this
// member's DEALERs). Each socket is paced once; listening sockets and everything else are left alone.
// Linux only: elsewhere refresh() finds nothing.
class ConnectionPacer {
public:
    // A connection may send this multiple of the member's bandwidth: above 1, so that a link faster than
    // its measured figure can still show it, and close enough to 1 to keep a shaper's queue short.
    static constexpr double kHeadroom = 1.25;
    static double rateFor(double bandwidthBytesPerSecond) { return kHeadroom * bandwidthBytesPerSecond; }

    // bytesPerSecond: the cap for each connection (0: the pacer does nothing). localEndpoint: the ROUTER's
    // bound endpoint ("tcp://0.0.0.0:5555"), empty for a member without one; remoteEndpoints: the
    // endpoints this member's DEALERs connect to. Endpoints it cannot read ("tcp://" and a port) are
    // skipped: a connection left unpaced is slower to settle, not wrong.
    ConnectionPacer(double bytesPerSecond, const std::string& localEndpoint,
                    const std::vector<std::string>& remoteEndpoints);

    // Paces the matching connections that appeared since the last call. Cheap (a scan of this process's
    // descriptors), but meant for every few tens of milliseconds, not every turn of a busy loop.
    void refresh();

    std::size_t pacedCount() const { return paced_.size(); }

    // The cap a socket carries now, in bytes per second (nullopt: not readable, e.g. not a socket);
    // for tests and the log.
    static std::optional<std::uint64_t> pacingRate(int fd);

private:
    struct Remote {
        std::string address; // binary, as inet_pton gives it; empty: any host
        int family = 0;
        std::uint16_t port = 0;
    };

    bool matches(int fd) const;

    std::uint64_t rate_;
    std::optional<std::uint16_t> localPort_;
    std::vector<Remote> remotes_;
    std::set<std::uint64_t>
        paced_; // socket inodes: a descriptor number may be reused, an inode not while open
};

} // namespace sahaj::net
