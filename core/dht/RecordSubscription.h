#pragma once

#include "core/dht/DhtRecord.h"

#include <QString>

#include <functional>
#include <map>
#include <mutex>
#include <vector>

namespace sahaj::dht {

// One listener of DhtNode: the key it follows, the callback, and which record of each owner it has
// already delivered, so that each poll delivers only records that are new or newer. Rounds of polling
// do not overlap (beginRound / deliver); cancel() ends delivery for good.
class RecordSubscription {
public:
    using Callback = std::function<void(const DhtRecord&)>;

    RecordSubscription(QString key, Callback callback);

    const QString& key() const { return key_; }

    // True, marking a round as started, when the subscription is active and no round is in flight.
    bool beginRound();
    // Ends the round: calls the callback with each record of `records` (live ones, from a get) that is
    // newer than the one last delivered for its owner. Forgets owners whose records cannot come back:
    // a record issued more than RecordRules::kMaxTtl ago has expired, and so has every older one.
    void deliver(const std::vector<DhtRecord>& records, std::chrono::system_clock::time_point now);
    // After it returns the callback is not running and never runs again. The callback itself may call it.
    void cancel();

private:
    QString key_;
    Callback callback_;
    // Held while the callback runs; recursive so that the callback may cancel its own subscription.
    std::recursive_mutex mutex_;
    bool active_ = true;
    bool inFlight_ = false;
    std::map<security::PeerId, std::chrono::system_clock::time_point> deliveredIssuedAt_;
};

} // namespace sahaj::dht
