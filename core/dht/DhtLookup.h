#pragma once

#include "core/dht/DhtRecord.h"
#include "core/dht/LatestRecords.h"
#include "core/dht/RunClock.h"

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <vector>

namespace sahaj::dht {

// One DHT lookup under way (DhtNode::lookUp; also what the node's blocking get() and its listeners wait
// on): the records that have arrived so far, and whether OpenDHT's search has ended. OpenDHT's thread
// fills it; any thread may read it.
class DhtLookup {
public:
    explicit DhtLookup(RunClock clock) : clock_(std::move(clock)) {}

    // Whether the network has answered in full (in a small network OpenDHT ends its search many seconds
    // after the records came).
    bool finished() const;
    // Each owner's newest live record among those that have arrived so far.
    std::vector<DhtRecord> records() const;
    // The records once the search ended or `timeout` passed, whichever came first.
    std::vector<DhtRecord> waitFor(std::chrono::milliseconds timeout) const;

    // OpenDHT's side: a record that arrived and was admitted, and the end of the search.
    void offer(DhtRecord record);
    void finish();

private:
    RunClock clock_;
    mutable std::mutex mutex_;
    mutable std::condition_variable finished_;
    bool done_ = false;
    LatestRecords records_;
};

} // namespace sahaj::dht
