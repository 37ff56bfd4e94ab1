#pragma once

#include "core/dht/DhtNode.h"
#include "core/dht/DhtRecord.h"

#include <QString>

#include <chrono>
#include <cstdint>
#include <vector>

namespace sahaj::collab {

// The live records under `key`, each decoded by `decode(record, value)` (false: malformed), for the
// boards of a run (progress, peers): the ones that decode are returned, the others counted in `rejected`.
template <typename Value, typename Decode>
std::vector<Value> decodedRecords(dht::DhtNode& node, const QString& key, std::chrono::milliseconds timeout,
                                  Decode decode, std::uint64_t& rejected) {
    std::vector<Value> values;
    for (const dht::DhtRecord& record : node.get(key, timeout)) {
        Value decoded;
        if (decode(record, decoded))
            values.push_back(std::move(decoded));
        else
            ++rejected;
    }
    return values;
}

} // namespace sahaj::collab
