#pragma once

#include "core/dht/DhtRecord.h"

#include <QString>

#include <chrono>
#include <memory>
#include <optional>
#include <vector>

namespace sahaj::dht {

class DhtLookup;
class DhtNode;

// One lookup at a time of the records under one key, without blocking the thread that asks: start()
// begins one on the DHT's thread (DhtNode::lookUp), take() hands over what it found once it has finished,
// or what had come by its deadline: OpenDHT ends a search only when every node it asked has answered or
// timed out, which in a small network can be many seconds after the records came, so the deadline plays
// the part of a blocking get()'s timeout. Used by one thread.
class RecordLookup {
public:
    RecordLookup(DhtNode& node, QString key, std::chrono::milliseconds deadline);

    // Begins a lookup unless one is under way.
    void start();
    // The records (each owner's newest live one) of the lookup that finished or reached its deadline
    // since the last call, once; nullopt while none has.
    std::optional<std::vector<DhtRecord>> take();
    // Whether a lookup has started and not been taken yet.
    bool underWay() const { return lookup_ != nullptr; }

private:
    DhtNode& node_;
    QString key_;
    std::chrono::milliseconds deadline_;
    std::shared_ptr<const DhtLookup> lookup_;
    std::chrono::steady_clock::time_point started_{};
};

} // namespace sahaj::dht
