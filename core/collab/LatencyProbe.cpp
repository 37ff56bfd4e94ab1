#include "core/collab/LatencyProbe.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <set>

namespace sahaj::collab {

namespace {

using Clock = std::chrono::steady_clock;

// "tcp://a.b.c.d:port" (the only form MessageValidator lets into a record) as a socket address.
bool parseEndpoint(const std::string& endpoint, sockaddr_in& address) {
    unsigned a = 0, b = 0, c = 0, d = 0, port = 0;
    char tail = 0;
    if (std::sscanf(endpoint.c_str(), "tcp://%u.%u.%u.%u:%u%c", &a, &b, &c, &d, &port, &tail) != 5)
        return false;
    if (a > 255 || b > 255 || c > 255 || d > 255 || port == 0 || port > 65535)
        return false;
    address = {};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<std::uint16_t>(port));
    address.sin_addr.s_addr = htonl((a << 24) | (b << 16) | (c << 8) | d);
    return true;
}

} // namespace

LatencyProbe::~LatencyProbe() {
    finish();
}

void LatencyProbe::start(const std::vector<PeerAnnouncement>& peers, const std::string& selfId,
                         std::chrono::milliseconds budget) {
    if (running())
        return;
    std::set<std::string> wanted;
    for (const PeerAnnouncement& peer : peers) {
        if (dials_.size() >= kMaxPeers)
            break;
        sockaddr_in address{};
        if (peer.peerId == selfId || !parseEndpoint(peer.endpoint, address))
            continue;
        wanted.insert(peer.peerId);
        const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
        if (fd < 0)
            continue;
        const auto startedAt = Clock::now();
        if (::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0 &&
            errno != EINPROGRESS) {
            ::close(fd); // refused at once
            heard(peer.peerId, std::nullopt);
            continue;
        }
        dials_.push_back({peer.peerId, fd, startedAt});
    }
    if (std::erase_if(figures_, [&](const auto& entry) { return !wanted.contains(entry.first); }) > 0)
        summarise();
    if (std::any_of(silent_->begin(), silent_->end(),
                    [&](const std::string& id) { return !wanted.contains(id); })) {
        auto silent = std::make_shared<std::set<std::string>>(*silent_);
        std::erase_if(*silent, [&](const std::string& id) { return !wanted.contains(id); });
        silent_ = std::move(silent);
    }
    deadline_ = Clock::now() + budget;
}

void LatencyProbe::poll() {
    if (!running())
        return;
    std::vector<pollfd> fds;
    for (const Dial& dial : dials_)
        fds.push_back({dial.fd, POLLOUT, 0});
    if (::poll(fds.data(), fds.size(), 0) > 0) {
        const auto now = Clock::now();
        for (std::size_t i = 0; i < fds.size(); ++i) {
            Dial& dial = dials_[i];
            if (!(fds[i].revents & (POLLOUT | POLLERR | POLLHUP)))
                continue;
            int error = 0;
            socklen_t length = sizeof error;
            if (::getsockopt(dial.fd, SOL_SOCKET, SO_ERROR, &error, &length) == 0 && error == 0) {
                // The kernel timed the handshake itself (SYN to SYN-ACK): exact, whenever this thread got to
                // look. Only where it cannot say does the time until this look stand in (an upper bound).
                tcp_info info{};
                socklen_t infoLength = sizeof info;
                const double rttMs =
                    ::getsockopt(dial.fd, IPPROTO_TCP, TCP_INFO, &info, &infoLength) == 0 && info.tcpi_rtt > 0
                        ? info.tcpi_rtt / 1000.0
                        : std::chrono::duration<double, std::milli>(now - dial.startedAt).count();
                heard(dial.peerId, rttMs);
            } else {
                heard(dial.peerId, std::nullopt);
            }
            ::close(dial.fd);
            dial.fd = -1;
        }
        std::erase_if(dials_, [](const Dial& dial) { return dial.fd < 0; });
    }
    if (Clock::now() >= deadline_)
        finish();
}

void LatencyProbe::finish() {
    for (Dial& dial : dials_)
        if (dial.fd >= 0) {
            ::close(dial.fd);
            heard(dial.peerId, std::nullopt); // not open within the budget
        }
    dials_.clear();
}

void LatencyProbe::heard(const std::string& peerId, std::optional<double> rttMs) {
    const bool wasSilent = silent_->contains(peerId);
    // least_ is rebuilt only when a figure comes or goes (latencies()): a peer that stays silent changes
    // nothing at the next dial.
    if (rttMs) {
        std::deque<double>& figures = figures_[peerId];
        figures.push_back(*rttMs);
        if (figures.size() > kKeptFigures)
            figures.pop_front();
        summarise();
    } else if (figures_.erase(peerId) > 0) {
        summarise();
    }
    if (wasSilent == !rttMs)
        return;
    auto silent = std::make_shared<std::set<std::string>>(*silent_);
    if (rttMs)
        silent->erase(peerId);
    else
        silent->insert(peerId);
    silent_ = std::move(silent);
}

void LatencyProbe::summarise() {
    auto least = std::make_shared<std::map<std::string, double>>();
    for (const auto& [peerId, figures] : figures_)
        if (!figures.empty())
            (*least)[peerId] = *std::min_element(figures.begin(), figures.end());
    least_ = std::move(least);
}

} // namespace sahaj::collab
