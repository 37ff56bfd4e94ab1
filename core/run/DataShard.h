#pragma once

#include <QString>

namespace sahaj::run {

// One piece of a run's training data, as the run manifest lists it.
struct DataShard {
    // file:///absolute/path (checked on this machine) or https://host/path (recorded; downloading comes
    // later).
    QString url;
    // SHA-256 of the file's bytes: 64 lowercase hexadecimal digits.
    QString sha256;
    qint64 bytes = 0;

    bool operator==(const DataShard&) const = default;
};

} // namespace sahaj::run
