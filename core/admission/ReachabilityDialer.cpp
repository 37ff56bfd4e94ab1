#include "core/admission/ReachabilityDialer.h"

#include "core/admission/AdmittedToken.h"
#include "core/admission/RequesterAddress.h"
#include "core/net/WireText.h"

#include <algorithm>

namespace sahaj::admission {

namespace {

wire::ReachabilityReply refusal(const QString& why) {
    wire::ReachabilityReply reply;
    reply.set_refusal(net::WireText::bounded(why));
    return reply;
}

} // namespace

ReachabilityDialer::ReachabilityDialer(security::PeerId organiser, QString runId,
                                       std::chrono::milliseconds timeout, std::size_t maxPending)
    : organiser_(std::move(organiser)), runId_(std::move(runId)), timeout_(timeout), dials_(maxPending) {}

std::optional<wire::ReachabilityReply> ReachabilityDialer::request(const wire::Envelope& request,
                                                                   const std::string& connectionUser,
                                                                   const std::string& peerAddress,
                                                                   std::string route, qint64 nowSeconds) {
    const wire::ReachabilityRequest& body = request.reachability_request();
    if (const QString problem = AdmittedToken::problem(body.token(), request.sender(), connectionUser,
                                                       organiser_, runId_, nowSeconds);
        !problem.isEmpty())
        return refusal(QStringLiteral("not admitted: ") + problem);
    if (std::any_of(pending_.begin(), pending_.end(),
                    [&](const auto& entry) { return entry.second.sender == request.sender(); }))
        return refusal(QStringLiteral("this peer is being dialled already: wait for that answer"));
    const QString address = RequesterAddress::numeric(peerAddress);
    if (address.isEmpty())
        return refusal(QStringLiteral("the endpoint cannot tell which address the request came from"));
    const std::optional<std::uint64_t> id =
        dials_.start(address, static_cast<std::uint16_t>(body.port()), timeout_);
    if (!id)
        return refusal(
            QStringLiteral("the token endpoint is dialling many peers: ask again in a few seconds"));
    Finished& pending = pending_[*id];
    pending.route = std::move(route);
    pending.requestId = request.request_id();
    pending.sender = request.sender();
    pending.port = static_cast<std::uint16_t>(body.port());
    pending.reply.set_observed_address(address.toStdString());
    return std::nullopt;
}

std::vector<ReachabilityDialer::Finished> ReachabilityDialer::finished(std::chrono::milliseconds wait) {
    std::vector<Finished> done;
    for (const net::DialAttempts::Outcome& outcome : dials_.poll(wait)) {
        const auto it = pending_.find(outcome.id);
        if (it == pending_.end())
            continue;
        Finished finished = std::move(it->second);
        pending_.erase(it);
        finished.reply.set_reachable(outcome.connected);
        if (!outcome.connected)
            finished.reply.set_detail(net::WireText::bounded(outcome.detail));
        done.push_back(std::move(finished));
    }
    return done;
}

} // namespace sahaj::admission
