#include "core/fetch/HttpFetch.h"

#include <QByteArray>
#include <QRegularExpression>

#include <curl/curl.h>

#include <chrono>
#include <memory>
#include <mutex>
#include <stdexcept>

namespace sahaj::fetch {

namespace {

using Outcome = FetchResult::Outcome;

void initialiseCurlOnce() {
    static std::once_flag once;
    std::call_once(once, [] {
        if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK)
            throw std::runtime_error("libcurl could not be initialised");
    });
}

// What the callbacks share with get(): the one transfer's state.
struct Transfer {
    CURL* curl = nullptr;
    const HttpFetch::Request* request = nullptr;
    const HttpFetch::Sink* sink = nullptr;
    const HttpFetch::Progress* progress = nullptr;
    const std::atomic<bool>* cancel = nullptr;
    long status = 0;
    bool statusChecked = false;
    std::int64_t toSkip = 0;
    std::int64_t received = 0;
    bool cutOff = false;
    bool sinkFailed = false;
    QString refusal; // why the write callback stopped a transfer whose status or range was wrong
    std::int64_t contentRangeStart = -1;
    std::chrono::steady_clock::time_point lastProgress{};
};

// The start of "Content-Range: bytes START-END/TOTAL" (header names are case-insensitive).
std::int64_t contentRangeStart(const QByteArray& line) {
    static const QRegularExpression form(QStringLiteral("^content-range:\\s*bytes\\s+(\\d+)-"),
                                         QRegularExpression::CaseInsensitiveOption);
    const QRegularExpressionMatch match = form.match(QString::fromLatin1(line));
    return match.hasMatch() ? match.captured(1).toLongLong() : -1;
}

std::size_t onHeader(char* data, std::size_t size, std::size_t count, void* context) {
    auto* t = static_cast<Transfer*>(context);
    const QByteArray line(data, qsizetype(size * count));
    if (line.startsWith("HTTP/"))
        t->contentRangeStart = -1; // a new response (after a redirect or a 100 Continue)
    else if (const std::int64_t start = contentRangeStart(line.trimmed()); start >= 0)
        t->contentRangeStart = start;
    return size * count;
}

// Checks the final response once, before its first body byte is stored.
bool acceptResponse(Transfer& t) {
    curl_easy_getinfo(t.curl, CURLINFO_RESPONSE_CODE, &t.status);
    t.statusChecked = true;
    if (t.status >= 400) {
        t.refusal = QStringLiteral("the server answered HTTP %1").arg(t.status);
        return false;
    }
    if (t.status == 206) {
        if (t.contentRangeStart != t.request->offset) {
            t.refusal = QStringLiteral("the server sent a range from byte %1 when asked from byte %2")
                            .arg(t.contentRangeStart)
                            .arg(t.request->offset);
            return false;
        }
        return true;
    }
    // 200: the whole file although a range was asked for; read past what the caller has.
    t.toSkip = t.request->offset;
    return true;
}

std::size_t onBody(char* data, std::size_t size, std::size_t count, void* context) {
    auto* t = static_cast<Transfer*>(context);
    std::size_t bytes = size * count;
    if (!t->statusChecked && !acceptResponse(*t))
        return 0;
    const std::size_t all = bytes;
    if (t->toSkip > 0) {
        const std::size_t skipped = std::size_t(std::min<std::int64_t>(t->toSkip, std::int64_t(bytes)));
        t->toSkip -= std::int64_t(skipped);
        data += skipped;
        bytes -= skipped;
    }
    bool overLimit = false;
    if (t->request->limit >= 0 && t->received + std::int64_t(bytes) > t->request->limit) {
        bytes = std::size_t(t->request->limit - t->received);
        overLimit = true;
    }
    if (bytes > 0 && !(*t->sink)(data, bytes)) {
        t->sinkFailed = true;
        return 0;
    }
    t->received += std::int64_t(bytes);
    if (overLimit) {
        t->cutOff = true;
        return 0;
    }
    return all;
}

int onTransferInfo(void* context, curl_off_t, curl_off_t, curl_off_t, curl_off_t) {
    auto* t = static_cast<Transfer*>(context);
    if (t->cancel && t->cancel->load())
        return 1;
    const auto now = std::chrono::steady_clock::now();
    if (*t->progress && now - t->lastProgress >= std::chrono::milliseconds(250)) {
        t->lastProgress = now;
        (*t->progress)(t->received);
    }
    return 0;
}

FetchResult::Outcome outcomeOfStatus(long status) {
    return status == 404 || status == 410 ? Outcome::NotFound : Outcome::HttpError;
}

FetchResult::Outcome outcomeOf(CURLcode code, const Transfer& t) {
    switch (code) {
    case CURLE_OK:
        if (t.status == 200 || t.status == 206)
            return t.toSkip > 0 ? Outcome::Network : Outcome::Complete; // shorter than what we had
        return outcomeOfStatus(t.status);
    case CURLE_WRITE_ERROR:
        if (t.cutOff)
            return Outcome::CutOff;
        if (t.sinkFailed)
            return Outcome::SinkFailed;
        return t.status >= 400 ? outcomeOfStatus(t.status) : Outcome::HttpError;
    case CURLE_ABORTED_BY_CALLBACK:
        return Outcome::Cancelled;
    case CURLE_OPERATION_TIMEDOUT:
        return Outcome::Stalled;
    case CURLE_UNSUPPORTED_PROTOCOL:
    case CURLE_TOO_MANY_REDIRECTS:
    case CURLE_URL_MALFORMAT:
        return Outcome::HttpError;
    default:
        return Outcome::Network;
    }
}

struct CurlDeleter {
    void operator()(CURL* curl) const { curl_easy_cleanup(curl); }
};
struct HeaderListDeleter {
    void operator()(curl_slist* list) const { curl_slist_free_all(list); }
};

} // namespace

FetchResult HttpFetch::get(const Request& request, const TransferSettings& settings, const Sink& sink,
                           const Progress& progress, const std::atomic<bool>* cancel) {
    initialiseCurlOnce();
    std::unique_ptr<CURL, CurlDeleter> curl(curl_easy_init());
    if (!curl)
        throw std::runtime_error("libcurl could not start a transfer");
    Transfer t;
    t.curl = curl.get();
    t.request = &request;
    t.sink = &sink;
    t.progress = &progress;
    t.cancel = cancel;
    char error[CURL_ERROR_SIZE] = {};
    const QByteArray url = request.url.toUtf8();
    const QByteArray agent = settings.userAgent.toUtf8();
    std::unique_ptr<curl_slist, HeaderListDeleter> headers;
    if (request.offset > 0) {
        const QByteArray range = "Range: bytes=" + QByteArray::number(qint64(request.offset)) + "-";
        headers.reset(curl_slist_append(nullptr, range.constData()));
    }
    CURL* c = curl.get();
    curl_easy_setopt(c, CURLOPT_URL, url.constData());
    curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(c, CURLOPT_REDIR_PROTOCOLS_STR, "https");
    curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 1L);
    curl_easy_setopt(c, CURLOPT_MAXREDIRS, long(settings.maxRedirects));
    curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L); // threads: no SIGALRM for DNS timeouts
    curl_easy_setopt(c, CURLOPT_USERAGENT, agent.constData());
    curl_easy_setopt(c, CURLOPT_ERRORBUFFER, error);
    curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, long(settings.connectTimeout.count()));
    curl_easy_setopt(c, CURLOPT_LOW_SPEED_LIMIT, long(settings.stallBytesPerSecond));
    curl_easy_setopt(c, CURLOPT_LOW_SPEED_TIME, long(settings.stallTime.count()));
    if (settings.maxBytesPerSecond > 0)
        curl_easy_setopt(c, CURLOPT_MAX_RECV_SPEED_LARGE, curl_off_t(settings.maxBytesPerSecond));
    curl_easy_setopt(c, CURLOPT_TCP_KEEPALIVE, 1L);
    if (headers)
        curl_easy_setopt(c, CURLOPT_HTTPHEADER, headers.get());
    curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, onHeader);
    curl_easy_setopt(c, CURLOPT_HEADERDATA, &t);
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, onBody);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, &t);
    curl_easy_setopt(c, CURLOPT_XFERINFOFUNCTION, onTransferInfo);
    curl_easy_setopt(c, CURLOPT_XFERINFODATA, &t);
    curl_easy_setopt(c, CURLOPT_NOPROGRESS, 0L);

    const CURLcode code = curl_easy_perform(c);
    if (!t.statusChecked)
        curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &t.status);
    FetchResult result;
    result.outcome = outcomeOf(code, t);
    result.httpStatus = t.status;
    result.received = t.received;
    if (!t.refusal.isEmpty())
        result.message = t.refusal;
    else if (t.cutOff)
        result.message = QStringLiteral("the server sent more than the %1 bytes expected").arg(request.limit);
    else if (code == CURLE_OK && t.toSkip > 0)
        result.message =
            QStringLiteral("the server's file is shorter than the %1 bytes already here").arg(request.offset);
    else if (code == CURLE_OK && result.outcome != Outcome::Complete)
        result.message = QStringLiteral("the server answered HTTP %1").arg(t.status);
    else if (code != CURLE_OK)
        result.message = QString::fromUtf8(error[0] ? error : curl_easy_strerror(code));
    if (progress)
        progress(t.received);
    return result;
}

FetchResult HttpFetch::getSmall(const QString& url, std::int64_t limit, const TransferSettings& settings,
                                QByteArray& body, const std::atomic<bool>* cancel) {
    body.clear();
    return get(
        {url, 0, limit}, settings,
        [&](const char* data, std::size_t size) {
            body.append(data, qsizetype(size));
            return true;
        },
        {}, cancel);
}

} // namespace sahaj::fetch
