#include "core/engine/Reachability.h"

namespace sahaj::engine {

QString Reachability::summary() const {
    switch (verdict) {
    case Verdict::Unchecked:
        return QStringLiteral("reachability not checked (%1): accepting connections at %2")
            .arg(detail, localAddress);
    case Verdict::Reachable:
        return QStringLiteral("reachable: the coordinator dialled %1 back; accepting connections")
            .arg(localAddress);
    case Verdict::BehindNat:
        return QStringLiteral("behind NAT: sending only (the coordinator sees this computer as %1; it "
                              "listens at %2%3)")
            .arg(observedAddress, localAddress, detail.isEmpty() ? QString() : QStringLiteral("; ") + detail);
    case Verdict::Unreachable:
        return QStringLiteral("behind a firewall: sending only (the coordinator could not dial %1 back: %2)")
            .arg(localAddress, detail);
    case Verdict::ChosenClient:
        return QStringLiteral("connecting out only, as chosen: sending only");
    }
    return {};
}

QString Reachability::name() const {
    switch (verdict) {
    case Verdict::Unchecked:
        return QStringLiteral("unchecked");
    case Verdict::Reachable:
        return QStringLiteral("reachable");
    case Verdict::BehindNat:
        return QStringLiteral("behind-nat");
    case Verdict::Unreachable:
        return QStringLiteral("unreachable");
    case Verdict::ChosenClient:
        return QStringLiteral("chosen-client");
    }
    return {};
}

} // namespace sahaj::engine
