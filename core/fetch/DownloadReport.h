#pragma once

#include <QString>

#include <cstdint>
#include <vector>

namespace sahaj::fetch {

// A place that failed to deliver a shard, and why: what the volunteer's log and the organiser see.
struct PlaceFailure {
    QString url;
    QString reason;
};

// What fetching one shard did.
struct DownloadReport {
    QString path;                       // the verified file
    QString place;                      // where its last bytes came from ("cache" when nothing moved)
    std::vector<PlaceFailure> failures; // places tried before, in order
    std::int64_t bytesReceived = 0;     // over the network in this call, from every place tried
    // Already on disk when the place that finished the file began: left by an earlier place of this call
    // or by an earlier, interrupted download.
    std::int64_t bytesResumed = 0;
    double seconds = 0;
};

} // namespace sahaj::fetch
