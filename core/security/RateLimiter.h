#pragma once

#include <QHash>
#include <QString>

#include <deque>

namespace sahaj::security {

// At most `limit` events per key in any `windowMs` (a sliding window), with memory bounded by `maxKeys`
// keys: anonymous token requests and password guesses come from strangers, who choose the keys.
// When the table is full, keys whose window has passed are dropped first; if none has, the new key is
// refused (better to turn a stranger away than to forget a guesser's count).
class RateLimiter {
public:
    RateLimiter(int limit, qint64 windowMs, int maxKeys = 10000);

    // Records the event and returns true when `key` has had fewer than `limit` events in the window.
    bool allow(const QString& key, qint64 nowMs);
    // How long until `key` may have an event again: 0 when it may now, the window when the table is full.
    qint64 retryAfterMs(const QString& key, qint64 nowMs) const;

private:
    void forgetIdle(qint64 nowMs);

    int limit_;
    qint64 windowMs_;
    int maxKeys_;
    QHash<QString, std::deque<qint64>> events_;
};

} // namespace sahaj::security
