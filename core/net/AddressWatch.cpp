#include "core/net/AddressWatch.h"

#include "core/net/RouteSource.h"

namespace sahaj::net {

AddressWatch::AddressWatch(QString coordinatorHost, QString current)
    : coordinatorHost_(std::move(coordinatorHost)), current_(std::move(current)),
      nextLook_(Clock::now() + kInterval) {}

std::optional<QString> AddressWatch::changed(Clock::time_point now) {
    if (now < nextLook_)
        return std::nullopt;
    nextLook_ = now + kInterval;
    const QString address = RouteSource::toward(coordinatorHost_);
    if (address.isEmpty() || address == current_)
        return std::nullopt;
    current_ = address;
    return address;
}

} // namespace sahaj::net
