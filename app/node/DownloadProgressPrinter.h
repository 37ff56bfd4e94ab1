#pragma once

#include "core/fetch/DownloadProgress.h"

#include <QString>

#include <chrono>
#include <mutex>

namespace sahaj::node {

// Shows downloads on standard output: a progress bar redrawn in place on a terminal, one JSON line per
// second ({"event": "download", ...}) for a program reading the output. Called from the downloading
// thread.
class DownloadProgressPrinter {
public:
    DownloadProgressPrinter();
    void operator()(const fetch::DownloadProgress& progress);
    // One line: "shard-0.bin  45.0% of 120.0 MiB  12.3 MiB/s  0:10 left".
    static QString line(const fetch::DownloadProgress& progress);

private:
    bool terminal_;
    std::mutex mutex_;
    std::chrono::steady_clock::time_point last_{};
    QString lastName_;
};

} // namespace sahaj::node
