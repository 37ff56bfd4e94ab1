#pragma once

#include <QString>

#include <cstdint>

namespace sahaj::net {

// A listening TCP socket held open for a moment: a volunteer listens where its ROUTER will, so that the
// coordinator can dial it back (the reachability check) before anything is announced. Connections are
// accepted by the kernel's handshake alone and never read; closing the listener resets them.
class TcpListener {
public:
    // Listens at `host` (numeric IPv4) and `port` (0: any free port). Throws std::runtime_error saying why
    // it cannot (the port is taken, the address is not this computer's).
    TcpListener(const QString& host, std::uint16_t port);
    ~TcpListener();
    TcpListener(const TcpListener&) = delete;
    TcpListener& operator=(const TcpListener&) = delete;

    // The port listened on: the one asked for, or the one the system chose.
    std::uint16_t port() const { return port_; }

private:
    int fd_ = -1;
    std::uint16_t port_ = 0;
};

} // namespace sahaj::net
