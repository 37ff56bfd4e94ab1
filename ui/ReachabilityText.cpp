#include "ui/ReachabilityText.h"

namespace sahaj::ui {

QString ReachabilityText::of(const engine::Reachability& reachability) {
    using Verdict = engine::Reachability::Verdict;
    if (reachability.localAddress.isEmpty() && reachability.verdict != Verdict::ChosenClient)
        return {};
    switch (reachability.verdict) {
    case Verdict::Reachable:
        return tr("Others can connect to this computer (at %1): it aggregates a share of each averaging "
                  "round.")
            .arg(reachability.localAddress);
    case Verdict::BehindNat:
        return tr("Behind NAT: sending only. The others cannot connect to this computer (the coordinator "
                  "sees "
                  "it as %1), so it sends its gradients but aggregates no share of the rounds.")
            .arg(reachability.observedAddress);
    case Verdict::Unreachable:
        return tr("Behind a firewall: sending only. The coordinator could not connect to %1 (%2), so this "
                  "computer sends its gradients but aggregates no share of the rounds.")
            .arg(reachability.localAddress, reachability.detail);
    case Verdict::ChosenClient:
        return tr("Connecting out only, as set in the settings: this computer aggregates no share of the "
                  "rounds.");
    case Verdict::Unchecked:
        return tr("Accepting connections at %1; whether others can reach it was not checked (%2).")
            .arg(reachability.localAddress, reachability.detail);
    }
    return {};
}

} // namespace sahaj::ui
