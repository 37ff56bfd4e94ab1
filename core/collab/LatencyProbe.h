#pragma once

#include "core/collab/PeerBoard.h"

#include <chrono>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace sahaj::collab {

// Round-trip times to the peers that accept connections, for the app's peer map: the round trip of the
// handshake of a TCP connection to the peer's endpoint (SYN to SYN-ACK, answered by the peer's kernel, so
// the figure is the network's and not the peer's busy collaboration thread; read from the kernel's
// TCP_INFO, so it does not depend on when this thread looks), closed at once. No ZeroMQ socket is involved:
// opening and closing those on peers that come and go trips an assertion in libzmq 4.3.4, and the peer's
// libzmq sees only a connection that ends before its greeting. Runs on the collaboration thread without
// blocking it: start() dials, poll() (called from the thread's loop) collects the connections that opened,
// until all did or the budget is spent. The figure shown is the least of the last few.
class LatencyProbe {
public:
    static constexpr std::size_t kMaxPeers = 16;
    static constexpr std::size_t kKeptFigures = 8;

    LatencyProbe() = default;
    ~LatencyProbe();
    LatencyProbe(const LatencyProbe&) = delete;
    LatencyProbe& operator=(const LatencyProbe&) = delete;

    // Dials the peers with an endpoint (at most kMaxPeers, skipping `selfId`); poll() collects for up to
    // `budget`. Does nothing while a measurement is still running. Figures of peers no longer in `peers`
    // are dropped.
    void start(const std::vector<PeerAnnouncement>& peers, const std::string& selfId,
               std::chrono::milliseconds budget);
    // Collects the connections that opened, without waiting; ends the measurement when all did or the
    // budget is spent.
    void poll();
    bool running() const { return !dials_.empty(); }
    // Peer id (32 bytes) → the least round trip, in ms, of its last kKeptFigures measurements. Rebuilt only
    // when a figure comes or goes, so the collaboration thread can hand it on at every turn of its loop.
    std::shared_ptr<const std::map<std::string, double>> latencies() const { return least_; }
    // Peers whose last dial was refused or not answered within the budget (gone, or unreachable from
    // here): their figures are dropped, so a dead peer's old round trip is not shown as if it lived.
    std::shared_ptr<const std::set<std::string>> silent() const { return silent_; }

private:
    struct Dial {
        std::string peerId;
        int fd = -1;
        std::chrono::steady_clock::time_point startedAt{};
    };

    void finish();
    void summarise();                                                   // least_ from figures_
    void heard(const std::string& peerId, std::optional<double> rttMs); // a dial's outcome

    std::map<std::string, std::deque<double>> figures_;
    std::shared_ptr<const std::map<std::string, double>> least_ =
        std::make_shared<const std::map<std::string, double>>();
    std::shared_ptr<const std::set<std::string>> silent_ = std::make_shared<const std::set<std::string>>();
    std::vector<Dial> dials_;
    std::chrono::steady_clock::time_point deadline_{};
};

} // namespace sahaj::collab
