#include "core/dht/RecordLookup.h"

#include "core/dht/DhtLookup.h"
#include "core/dht/DhtNode.h"

#include <utility>

namespace sahaj::dht {

RecordLookup::RecordLookup(DhtNode& node, QString key, std::chrono::milliseconds deadline)
    : node_(node), key_(std::move(key)), deadline_(deadline) {}

void RecordLookup::start() {
    if (lookup_)
        return;
    lookup_ = node_.lookUp(key_);
    started_ = std::chrono::steady_clock::now();
}

std::optional<std::vector<DhtRecord>> RecordLookup::take() {
    if (!lookup_ || (!lookup_->finished() && std::chrono::steady_clock::now() - started_ < deadline_))
        return std::nullopt;
    std::vector<DhtRecord> records = lookup_->records();
    lookup_.reset(); // a search still running goes on into a handle nobody reads
    return records;
}

} // namespace sahaj::dht
