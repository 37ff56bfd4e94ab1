#pragma once

#include "core/admission/ReachabilityClient.h"
#include "core/engine/PeerOptions.h"
#include "core/engine/Reachability.h"

#include <atomic>
#include <chrono>
#include <string>

namespace sahaj::engine {

// How a volunteer finds out, as it joins, whether others can dial it: it listens where its ROUTER will,
// asks the coordinator's token endpoint (`endpoint`, what VolunteerAdmission::admit returned) to dial it
// back, and takes client mode — sending only — when the coordinator cannot reach this computer's own
// address. docs/emulated-internet.md tells what each verdict means on the emulated Internet.
class ReachabilityCheck {
public:
    // The dial back takes up to 3 s (admission::ReachabilityDialer); the CURVE handshake and the answer,
    // the rest.
    static constexpr std::chrono::seconds kAnswerTimeout{10};

    // For an admitted node (options.link.security set, role node): checks and, when others cannot dial
    // it, sets options.link.role to client (and stateDonor off). A listening port of 0 becomes the port
    // that was checked, so that the ROUTER binds where the dial reached. An endpoint that cannot answer
    // (none known, an older coordinator, no answer) leaves the peer a node, as before the check: the
    // verdict says why. Throws std::runtime_error when this computer cannot listen where it should.
    static Reachability apply(PeerOptions& options, const std::string& endpoint);

    // The verdict for a peer listening at `localAddress` ("IPV4:PORT") given the endpoint's answer.
    static Reachability judge(const QString& localAddress,
                              const admission::ReachabilityClient::Answer& answer);
};

} // namespace sahaj::engine
