#pragma once

#include "core/fetch/FetchResult.h"
#include "core/fetch/TransferSettings.h"

#include <QByteArray>
#include <QString>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>

namespace sahaj::fetch {

// One HTTP(S) GET through libcurl, streamed to the caller: resumable from an offset (a range request;
// a server that ignores ranges is read past the bytes the caller has), bounded in bytes (a server that
// sends more than the caller allows is cut off at the limit), with the deadlines of TransferSettings and
// cancellation. Blocking: it runs on a downloading thread, never on the collaboration thread.
class HttpFetch {
public:
    // Receives body bytes in order; answers false when they could not be stored (the transfer stops with
    // SinkFailed, the place is not blamed).
    using Sink = std::function<bool(const char* data, std::size_t size)>;
    // Body bytes handed to the sink so far; called a few times a second at most. May be empty.
    using Progress = std::function<void(std::int64_t received)>;

    struct Request {
        QString url;
        // Bytes the caller already has: asked for with a range request, skipped when the server sends
        // them anyway.
        std::int64_t offset = 0;
        // The most body bytes (after `offset`) the caller accepts; -1 for no limit.
        std::int64_t limit = -1;
    };

    static FetchResult get(const Request& request, const TransferSettings& settings, const Sink& sink,
                           const Progress& progress = {}, const std::atomic<bool>* cancel = nullptr);
    // The whole body of `url`, at most `limit` bytes, into `body` (a small file: a join file, a run
    // directory); a larger body ends with CutOff.
    static FetchResult getSmall(const QString& url, std::int64_t limit, const TransferSettings& settings,
                                QByteArray& body, const std::atomic<bool>* cancel = nullptr);
};

} // namespace sahaj::fetch
