// The test web server itself (tests/common/NginxServer.h), spoken to over plain sockets so that nothing
// of the downloader is involved: a whole file, a range, a 404, what the access log records, the slow and
// stalling paths, and a stop and start at the same address.
#include "tests/common/NginxServer.h"

#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QtTest>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <cerrno>
#include <optional>

using sahaj::test::NginxServer;

namespace {

constexpr qint64 kFileSize = 1024 * 1024;

struct HttpResponse {
    int status = 0;
    QMap<QByteArray, QByteArray> headers; // names in lower case
    QByteArray body;
};

// An open TCP connection to 127.0.0.1:port, or -1; `connectErrno` gets the reason.
int connectLoopback(quint16 port, int* connectErrno = nullptr) {
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return -1;
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    address.sin_port = htons(port);
    if (::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)) != 0) {
        if (connectErrno)
            *connectErrno = errno;
        ::close(fd);
        return -1;
    }
    return fd;
}

// Reads what arrives until the peer closes or `timeoutMs` passes without data.
QByteArray readAvailable(int fd, int timeoutMs) {
    timeval timeout{timeoutMs / 1000, (timeoutMs % 1000) * 1000};
    ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof(timeout));
    QByteArray data;
    char buffer[65536];
    for (;;) {
        const ssize_t n = ::recv(fd, buffer, sizeof(buffer), 0);
        if (n <= 0)
            break;
        data.append(buffer, n);
    }
    return data;
}

bool sendRequest(int fd, const QByteArray& path, const QByteArray& extraHeaders) {
    const QByteArray request =
        "GET " + path + " HTTP/1.0\r\nHost: 127.0.0.1\r\n" + extraHeaders + "\r\n"; // 1.0: the server closes
    return ::send(fd, request.constData(), request.size(), MSG_NOSIGNAL) == request.size();
}

// A GET over HTTP/1.0, so the body ends where the connection does.
std::optional<HttpResponse> httpGet(quint16 port, const QByteArray& path,
                                    const QByteArray& extraHeaders = {}) {
    const int fd = connectLoopback(port);
    if (fd < 0)
        return std::nullopt;
    const bool sent = sendRequest(fd, path, extraHeaders);
    const QByteArray raw = sent ? readAvailable(fd, 5000) : QByteArray();
    ::close(fd);
    const qsizetype end = raw.indexOf("\r\n\r\n");
    if (end < 0)
        return std::nullopt;
    const QList<QByteArray> lines = raw.left(end).split('\n');
    const QList<QByteArray> statusLine = lines.first().trimmed().split(' ');
    if (statusLine.size() < 2)
        return std::nullopt;
    HttpResponse response;
    response.status = statusLine.at(1).toInt();
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const qsizetype colon = lines.at(i).indexOf(':');
        if (colon > 0)
            response.headers.insert(lines.at(i).left(colon).trimmed().toLower(),
                                    lines.at(i).mid(colon + 1).trimmed());
    }
    response.body = raw.mid(end + 4);
    return response;
}

const NginxServer::AccessEntry* findEntry(const std::vector<NginxServer::AccessEntry>& entries,
                                          const QString& uri) {
    for (const auto& entry : entries)
        if (entry.uri == uri)
            return &entry;
    return nullptr;
}

} // namespace

class TestNginxServer : public QObject {
    Q_OBJECT

    QTemporaryDir served_;
    QTemporaryDir work_;
    std::unique_ptr<NginxServer> server_;
    QByteArray content_;

private Q_SLOTS:
    void initTestCase() {
        QVERIFY2(NginxServer::available(), qPrintable(NginxServer::missingReason()));
        QVERIFY(served_.isValid() && work_.isValid());
        content_.resize(kFileSize);
        QRandomGenerator random(20240611);
        random.fillRange(reinterpret_cast<quint32*>(content_.data()), kFileSize / 4);
        QFile file(served_.filePath(QStringLiteral("shard.bin")));
        QVERIFY(file.open(QIODevice::WriteOnly) && file.write(content_) == kFileSize);
        file.close();

        server_ = std::make_unique<NginxServer>(served_.path(), work_.path());
        QString error;
        QVERIFY2(server_->start(&error), qPrintable(error));
        QVERIFY(server_->running());
        QVERIFY(server_->port() != 0);
        QCOMPARE(server_->baseUrl(), QStringLiteral("http://127.0.0.1:%1").arg(server_->port()));
        QCOMPARE(server_->url(QStringLiteral("shard.bin")),
                 server_->baseUrl() + QStringLiteral("/shard.bin"));
        QCOMPARE(server_->slowUrl(QStringLiteral("/shard.bin")),
                 server_->baseUrl() + QStringLiteral("/slow/shard.bin"));
        QCOMPARE(server_->stallUrl(QStringLiteral("shard.bin")),
                 server_->baseUrl() + QStringLiteral("/stall/shard.bin"));
    }

    void servesTheWholeFile() {
        const auto response = httpGet(server_->port(), "/shard.bin");
        QVERIFY(response);
        QCOMPARE(response->status, 200);
        QCOMPARE(response->headers.value("content-length").toLongLong(), kFileSize);
        QCOMPARE(response->headers.value("content-type"), QByteArray("application/octet-stream"));
        QCOMPARE(response->body.size(), kFileSize);
        QVERIFY(response->body == content_);
    }

    void servesARange() {
        const auto response = httpGet(server_->port(), "/shard.bin", "Range: bytes=1000-\r\n");
        QVERIFY(response);
        QCOMPARE(response->status, 206);
        QCOMPARE(response->headers.value("content-range"), QByteArray("bytes 1000-") +
                                                               QByteArray::number(kFileSize - 1) + '/' +
                                                               QByteArray::number(kFileSize));
        QVERIFY(response->body == content_.mid(1000));
    }

    void answersAMissingFileWith404() {
        const auto response = httpGet(server_->port(), "/absent.bin");
        QVERIFY(response);
        QCOMPARE(response->status, 404);
    }

    void logsEveryRequest() {
        const auto entries = server_->accessEntries();
        QCOMPARE(int(entries.size()), 3);
        QCOMPARE(server_->accessLog().size(), 3);

        QCOMPARE(entries[0].status, 200);
        QCOMPARE(entries[0].method, QStringLiteral("GET"));
        QCOMPARE(entries[0].uri, QStringLiteral("/shard.bin"));
        QVERIFY(entries[0].range.isEmpty());
        QCOMPARE(entries[0].bytesSent, kFileSize);

        QCOMPARE(entries[1].status, 206);
        QCOMPARE(entries[1].uri, QStringLiteral("/shard.bin"));
        QCOMPARE(entries[1].range, QStringLiteral("bytes=1000-"));
        QCOMPARE(entries[1].bytesSent, kFileSize - 1000);

        QCOMPARE(entries[2].status, 404);
        QCOMPARE(entries[2].uri, QStringLiteral("/absent.bin"));
    }

    // The slow path serves the same files (a small range comes at once even at its rate).
    void slowPathServesTheSameFile() {
        const auto response = httpGet(server_->port(), "/slow/shard.bin", "Range: bytes=0-99\r\n");
        QVERIFY(response);
        QCOMPARE(response->status, 206);
        QVERIFY(response->body == content_.left(100));
        const auto* entry = findEntry(server_->accessEntries(), QStringLiteral("/slow/shard.bin"));
        QVERIFY(entry);
        QCOMPARE(entry->range, QStringLiteral("bytes=0-99"));
        QCOMPARE(entry->bytesSent, qint64(100));
    }

    // The stall path sends a byte a second: in a second and a half a client sees next to nothing.
    void stallPathAllButStalls() {
        const int fd = connectLoopback(server_->port());
        QVERIFY(fd >= 0);
        QVERIFY(sendRequest(fd, "/stall/shard.bin", {}));
        QElapsedTimer timer;
        timer.start();
        QByteArray received;
        while (timer.elapsed() < 1500)
            received += readAvailable(fd, 100);
        ::close(fd);
        QVERIFY2(received.size() < 16, qPrintable(QStringLiteral("%1 bytes arrived").arg(received.size())));
    }

    void stopsAndStartsAgainAtTheSameAddress() {
        const quint16 port = server_->port();
        server_->stop();
        QVERIFY(!server_->running());
        int reason = 0;
        QCOMPARE(connectLoopback(port, &reason), -1);
        QCOMPARE(reason, ECONNREFUSED);

        QString error;
        QVERIFY2(server_->start(&error), qPrintable(error));
        QCOMPARE(server_->port(), port);
        const auto response = httpGet(port, "/shard.bin", "Range: bytes=0-9\r\n");
        QVERIFY(response);
        QCOMPARE(response->status, 206);
        QVERIFY(response->body == content_.left(10));
    }

    void cleanupTestCase() { server_.reset(); }
};

QTEST_GUILESS_MAIN(TestNginxServer)
#include "tst_nginx_server.moc"
