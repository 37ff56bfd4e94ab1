#include "core/engine/ReachabilityCheck.h"

#include "core/engine/VolunteerAdmission.h"
#include "core/net/TcpListener.h"

#include <QLatin1Char>

#include <stdexcept>

namespace sahaj::engine {

Reachability ReachabilityCheck::judge(const QString& localAddress,
                                      const admission::ReachabilityClient::Answer& answer) {
    Reachability result;
    result.localAddress = localAddress;
    result.observedAddress = answer.observedAddress;
    const QString host = localAddress.section(QLatin1Char(':'), 0, 0);
    if (answer.observedAddress != host) {
        // Even when the dial went through (a port forwarded on the router), the others would dial the
        // address this peer announces, its own: only sending works for them.
        result.verdict = Reachability::Verdict::BehindNat;
        if (answer.reachable)
            result.detail = QStringLiteral("connections to %1 reach it, but peers are told its own address")
                                .arg(answer.observedAddress);
    } else if (!answer.reachable) {
        result.verdict = Reachability::Verdict::Unreachable;
        result.detail = answer.detail;
    } else {
        result.verdict = Reachability::Verdict::Reachable;
    }
    return result;
}

Reachability ReachabilityCheck::apply(PeerOptions& options, const std::string& endpoint) {
    const std::string prefix = "tcp://";
    const std::string& listen = options.link.listenEndpoint;
    Reachability unchecked;
    unchecked.localAddress =
        QString::fromStdString(listen.substr(listen.rfind(prefix, 0) == 0 ? prefix.size() : 0));
    if (options.link.role == wire::ROLE_CLIENT) {
        unchecked.verdict = Reachability::Verdict::ChosenClient;
        return unchecked;
    }
    if (options.link.role != wire::ROLE_NODE) {
        unchecked.detail = QStringLiteral("an auxiliary peer must accept connections");
        return unchecked;
    }
    if (!options.link.security || endpoint.empty()) {
        unchecked.detail = QStringLiteral("no token endpoint to dial this computer back");
        return unchecked;
    }
    const QString host = unchecked.localAddress.section(QLatin1Char(':'), 0, 0);
    bool portOk = false;
    const uint port = unchecked.localAddress.section(QLatin1Char(':'), 1, 1).toUInt(&portOk);
    if (!portOk || port > 65535)
        throw std::runtime_error("cannot check reachability: the listening endpoint " + listen +
                                 " is not tcp://IPV4:PORT");

    // Held open while the coordinator dials: the ROUTER takes the port over once it closes.
    const net::TcpListener listener(host, static_cast<std::uint16_t>(port));
    const QString local = QStringLiteral("%1:%2").arg(host).arg(listener.port());
    Reachability result;
    try {
        result = judge(local, VolunteerAdmission::askReachability(options, endpoint, listener.port(),
                                                                  std::chrono::milliseconds(kAnswerTimeout)));
    } catch (const std::runtime_error& e) {
        unchecked.localAddress = local;
        unchecked.detail = QString::fromUtf8(e.what());
        result = unchecked;
    }
    options.link.listenEndpoint = prefix + local.toStdString();
    if (result.sendsOnly()) {
        options.link.role = wire::ROLE_CLIENT;
        options.link.stateDonor = false;
    }
    return result;
}

} // namespace sahaj::engine
