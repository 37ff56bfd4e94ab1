#pragma once

#include <QString>

#include <cstdint>
#include <functional>

namespace sahaj::fetch {

// Where one download stands, for a progress bar: what, how far, how fast.
struct DownloadProgress {
    QString name;              // the shard or file, as messages name it
    QString place;             // the URL being read now
    std::int64_t done = 0;     // bytes on disk, resumed ones included
    std::int64_t total = 0;    // the manifest's size
    double bytesPerSecond = 0; // over this transfer so far
    bool finished = false;

    // Seconds left at the current rate; -1 when unknown.
    double etaSeconds() const {
        return bytesPerSecond > 0 && total >= done ? double(total - done) / bytesPerSecond : -1;
    }
};

// Called from the downloading thread, a few times a second at most.
using ProgressCallback = std::function<void(const DownloadProgress&)>;

} // namespace sahaj::fetch
