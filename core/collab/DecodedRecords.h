#pragma once

#include "core/dht/DhtNode.h"
#include "core/dht/DhtRecord.h"
#include "core/dht/RecordLookup.h"

#include <QString>

#include <chrono>
#include <cstdint>
#include <optional>
#include <vector>

namespace sahaj::collab {

// `records` each decoded by `decode(record, value)` (false: malformed), for the boards of a run (progress,
// peers): the ones that decode are returned, the others counted in `rejected`.
template <typename Value, typename Decode>
std::vector<Value> decodedRecords(const std::vector<dht::DhtRecord>& records, Decode decode,
                                  std::uint64_t& rejected) {
    std::vector<Value> values;
    for (const dht::DhtRecord& record : records) {
        Value decoded;
        if (decode(record, decoded))
            values.push_back(std::move(decoded));
        else
            ++rejected;
    }
    return values;
}

// The same of what `lookup` found, once it has (dht::RecordLookup::take); nullopt before.
template <typename Value, typename Decode>
std::optional<std::vector<Value>> takeDecoded(dht::RecordLookup& lookup, Decode decode,
                                              std::uint64_t& rejected) {
    const std::optional<std::vector<dht::DhtRecord>> records = lookup.take();
    if (!records)
        return std::nullopt;
    return decodedRecords<Value>(*records, decode, rejected);
}

// The same of the live records under `key`, looked up within `timeout` (blocking).
template <typename Value, typename Decode>
std::vector<Value> decodedRecords(dht::DhtNode& node, const QString& key, std::chrono::milliseconds timeout,
                                  Decode decode, std::uint64_t& rejected) {
    return decodedRecords<Value>(node.get(key, timeout), decode, rejected);
}

} // namespace sahaj::collab
