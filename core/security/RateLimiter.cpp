#include "core/security/RateLimiter.h"

#include <algorithm>
#include <stdexcept>

namespace sahaj::security {

RateLimiter::RateLimiter(int limit, qint64 windowMs, int maxKeys)
    : limit_(limit), windowMs_(windowMs), maxKeys_(maxKeys) {
    if (limit < 1 || windowMs < 1 || maxKeys < 1)
        throw std::invalid_argument("a rate limit needs a limit, a window and a key count of at least 1");
}

void RateLimiter::forgetIdle(qint64 nowMs) {
    for (auto it = events_.begin(); it != events_.end();) {
        if (it->empty() || it->back() <= nowMs - windowMs_)
            it = events_.erase(it);
        else
            ++it;
    }
}

bool RateLimiter::allow(const QString& key, qint64 nowMs) {
    if (!events_.contains(key) && events_.size() >= maxKeys_) {
        forgetIdle(nowMs);
        if (events_.size() >= maxKeys_)
            return false;
    }
    std::deque<qint64>& times = events_[key];
    while (!times.empty() && times.front() <= nowMs - windowMs_)
        times.pop_front();
    if (static_cast<int>(times.size()) >= limit_)
        return false;
    times.push_back(nowMs);
    return true;
}

qint64 RateLimiter::retryAfterMs(const QString& key, qint64 nowMs) const {
    const auto found = events_.constFind(key);
    if (found == events_.constEnd())
        return events_.size() >= maxKeys_ ? windowMs_ : 0;
    const std::deque<qint64>& times = *found;
    // The events still in the window, oldest first: the limit-th from the end must leave it.
    const auto inWindow =
        std::count_if(times.begin(), times.end(), [&](qint64 t) { return t > nowMs - windowMs_; });
    if (inWindow < limit_)
        return 0;
    return times[times.size() - std::size_t(limit_)] + windowMs_ - nowMs;
}

} // namespace sahaj::security
