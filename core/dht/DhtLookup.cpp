#include "core/dht/DhtLookup.h"

#include <utility>

namespace sahaj::dht {

bool DhtLookup::finished() const {
    const std::lock_guard lock(mutex_);
    return done_;
}

std::vector<DhtRecord> DhtLookup::records() const {
    const std::lock_guard lock(mutex_);
    return records_.live(clock_());
}

std::vector<DhtRecord> DhtLookup::waitFor(std::chrono::milliseconds timeout) const {
    std::unique_lock lock(mutex_);
    finished_.wait_for(lock, timeout, [&] { return done_; });
    return records_.live(clock_());
}

void DhtLookup::offer(DhtRecord record) {
    const std::lock_guard lock(mutex_);
    records_.offer(std::move(record));
}

void DhtLookup::finish() {
    {
        const std::lock_guard lock(mutex_);
        done_ = true;
    }
    finished_.notify_all();
}

} // namespace sahaj::dht
