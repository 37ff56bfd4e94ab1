#include "core/fetch/FetchResult.h"

namespace sahaj::fetch {

QString FetchResult::outcomeName(Outcome outcome) {
    switch (outcome) {
    case Outcome::Complete:
        return QStringLiteral("complete");
    case Outcome::CutOff:
        return QStringLiteral("cut off");
    case Outcome::NotFound:
        return QStringLiteral("not found");
    case Outcome::HttpError:
        return QStringLiteral("HTTP error");
    case Outcome::Stalled:
        return QStringLiteral("stalled");
    case Outcome::Network:
        return QStringLiteral("network error");
    case Outcome::Cancelled:
        return QStringLiteral("cancelled");
    case Outcome::SinkFailed:
        return QStringLiteral("not stored");
    case Outcome::Refused:
        return QStringLiteral("refused");
    }
    return QStringLiteral("unknown");
}

} // namespace sahaj::fetch
