#pragma once

#include <QJsonObject>

#include <cstdint>

namespace sahaj::text {

// Where a PretrainingStream stands, small enough to save with every checkpoint. Restoring it re-reads
// the current pass's documents up to `document` (reading and shuffling only, no tokenising) and
// tokenises one document, so resuming costs one pass over the file at worst, not a replay of training.
struct StreamPosition {
    std::uint64_t batch = 0;    // batches handed out before this point
    std::uint64_t pass = 0;     // corpus pass (0-based) of the next example
    std::uint64_t document = 0; // index, in this pass's shuffled order, of the document of the next example
    std::uint64_t example = 0;  // index of the next example within that document

    QJsonObject toJson() const;
    // Throws std::runtime_error naming the field when one is missing or not a non-negative integer.
    static StreamPosition fromJson(const QJsonObject& json);

    bool operator==(const StreamPosition&) const = default;
};

} // namespace sahaj::text
