#pragma once

#include <QString>

namespace sahaj::engine {

// Whether other peers can open connections to this one, as found when it joined (ReachabilityCheck): a
// peer they cannot dial takes client mode and only sends (its gradients go out; it aggregates no span and
// serves no state).
struct Reachability {
    enum class Verdict {
        Unchecked,    // not asked (no token endpoint, an old coordinator, an auxiliary peer): a node
        Reachable,    // the coordinator dialled this computer's own address back: a node
        BehindNat,    // the coordinator sees another address than this computer's: sending only
        Unreachable,  // its own address, but the dial back failed (a firewall): sending only
        ChosenClient, // the user chose to connect out only
    };

    Verdict verdict = Verdict::Unchecked;
    QString localAddress;    // where this computer listens, "IPV4:PORT"
    QString observedAddress; // the address the coordinator saw it come from
    QString detail;          // what the dial back met, or why there was none

    bool sendsOnly() const {
        return verdict == Verdict::BehindNat || verdict == Verdict::Unreachable ||
               verdict == Verdict::ChosenClient;
    }
    // One English line for logs and the command line: "behind NAT: sending only (...)".
    QString summary() const;
    // "unchecked", "reachable", "behind-nat", "unreachable", "chosen-client": the command line's JSON.
    QString name() const;
};

} // namespace sahaj::engine
