#pragma once

// A real web server (Debian's nginx-light) on a loopback port for the downloader's tests: whole files,
// range requests, 404s, a rate-limited path and a path that all but stalls, with an access log the tests
// read back to see what was asked for. CI installs nginx (scripts/setup.sh), so its absence is a failure.

#include <QByteArray>
#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QString>
#include <QStringList>
#include <QThread>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>
#ifdef __linux__
#include <csignal>
#include <sys/prctl.h>
#endif

#include <vector>

namespace sahaj::test {

class NginxServer {
public:
    // One line of the access log.
    struct AccessEntry {
        int status = 0;
        QString method;
        QString uri;          // the path as nginx resolved it (decoded, without the query)
        QString range;        // the request's Range header; empty when it had none
        qint64 bytesSent = 0; // body bytes only, headers not counted
    };

    static constexpr const char* kExecutable = "/usr/sbin/nginx";

    // `servedDir` is the folder the server's root maps to; `workDir` (the test's temporary folder) holds
    // the configuration, logs, pid file and nginx's temporary folders. Both are absolute paths.
    NginxServer(const QString& servedDir, const QString& workDir)
        : served_(QDir::cleanPath(servedDir)), work_(QDir::cleanPath(workDir)) {}
    ~NginxServer() { stop(); }
    NginxServer(const NginxServer&) = delete;
    NginxServer& operator=(const NginxServer&) = delete;

    static bool available() {
        const QFileInfo info(QString::fromLatin1(kExecutable));
        return info.isFile() && info.isExecutable();
    }
    // The message a test fails with when nginx is missing, or an empty string when it is there.
    static QString missingReason() {
        return available() ? QString() : QStringLiteral("nginx is not installed: run scripts/setup.sh");
    }

    // The rate of the /slow/ path in bytes per second; takes effect at the next start().
    void setSlowRate(qint64 bytesPerSecond) { slowRate_ = bytesPerSecond; }

    // Writes the configuration and starts nginx; true once it accepts connections. The first start picks
    // a free port (retrying with another when something takes it first); later starts reuse that port, so
    // a test can stop the server mid-download and bring it back at the same address.
    bool start(QString* error) {
        if (running())
            return true;
        if (!available()) {
            setError(error, missingReason());
            return false;
        }
        QString failure;
        for (int attempt = 0; attempt < kAttempts; ++attempt) {
            if (!portKept_ || port_ == 0)
                port_ = freeLoopbackPort();
            if (port_ == 0) {
                failure = QStringLiteral("no free loopback port");
                continue;
            }
            const Outcome outcome = startOnce(&failure);
            if (outcome == Outcome::Started) {
                portKept_ = true;
                return true;
            }
            if (outcome == Outcome::Failed)
                break;
            // The port was taken: a kept port may just not be free yet, a fresh one is picked again.
            if (portKept_)
                QThread::msleep(200);
        }
        setError(error, failure);
        return false;
    }

    void stop() {
        if (process_.state() == QProcess::NotRunning)
            return;
        process_.kill();
        process_.waitForFinished(5000);
    }

    // Whether the nginx process is running (as QProcess last saw it).
    bool running() const { return process_.state() != QProcess::NotRunning; }

    quint16 port() const { return port_; }
    QString baseUrl() const { return QStringLiteral("http://127.0.0.1:%1").arg(port_); }
    QString url(const QString& relativePath) const { return baseUrl() + u'/' + relative(relativePath); }
    // The same file at `slowRate` bytes per second.
    QString slowUrl(const QString& relativePath) const {
        return baseUrl() + QStringLiteral("/slow/") + relative(relativePath);
    }
    // The same file at one byte per second, headers included: a download that stalls from the start.
    QString stallUrl(const QString& relativePath) const {
        return baseUrl() + QStringLiteral("/stall/") + relative(relativePath);
    }

    QString configPath() const { return work_ + QStringLiteral("/nginx.conf"); }
    QString errorLogPath() const { return work_ + QStringLiteral("/error.log"); }
    QString accessLogPath() const { return work_ + QStringLiteral("/access.log"); }

    // The access log's lines, oldest first; nginx writes a line when a request ends (a client that hangs
    // up counts as an end).
    QStringList accessLog() const {
        QFile file(accessLogPath());
        if (!file.open(QIODevice::ReadOnly))
            return {};
        return QString::fromUtf8(file.readAll()).split(u'\n', Qt::SkipEmptyParts);
    }

    std::vector<AccessEntry> accessEntries() const {
        std::vector<AccessEntry> entries;
        for (const QString& line : accessLog()) {
            // `status method uri "range" bytes`: the uri may hold spaces, the quoted range cannot hold a
            // quote (nginx escapes it), so the line is split from both ends.
            const int firstSpace = line.indexOf(u' ');
            const int secondSpace = line.indexOf(u' ', firstSpace + 1);
            const int lastSpace = line.lastIndexOf(u' ');
            const int closeQuote = lastSpace - 1;
            const int openQuote = closeQuote > 0 ? line.lastIndexOf(u'"', closeQuote - 1) : -1;
            if (firstSpace <= 0 || secondSpace < 0 || openQuote <= secondSpace || line.at(closeQuote) != u'"')
                continue;
            AccessEntry entry;
            entry.status = line.left(firstSpace).toInt();
            entry.method = line.mid(firstSpace + 1, secondSpace - firstSpace - 1);
            entry.uri = line.mid(secondSpace + 1, openQuote - secondSpace - 2);
            entry.range = line.mid(openQuote + 1, closeQuote - openQuote - 1);
            if (entry.range == u'-')
                entry.range.clear();
            entry.bytesSent = line.mid(lastSpace + 1).toLongLong();
            entries.push_back(entry);
        }
        return entries;
    }

    // The last `lines` lines of the error log, to explain a failure.
    QString errorLogTail(int lines = 20) const {
        QFile file(errorLogPath());
        if (!file.open(QIODevice::ReadOnly))
            return {};
        const QStringList all = QString::fromUtf8(file.readAll()).split(u'\n', Qt::SkipEmptyParts);
        return all.mid(qMax(0, all.size() - lines)).join(u'\n');
    }

private:
    enum class Outcome { Started, PortTaken, Failed };

    static constexpr int kAttempts = 5;
    static constexpr int kStartDeadlineMs = 10000;

    static void setError(QString* error, const QString& message) {
        if (error)
            *error = message;
    }

    static QString relative(const QString& path) {
        QString out = path;
        while (out.startsWith(u'/'))
            out.remove(0, 1);
        return out;
    }

    // A quoted nginx configuration string.
    static QString quoted(const QString& value) {
        QString out = value;
        out.replace(u'\\', QStringLiteral("\\\\")).replace(u'"', QStringLiteral("\\\""));
        return u'"' + out + u'"';
    }

    // A port the kernel just handed out on loopback; something else could take it before nginx binds it,
    // which start() notices and retries.
    static quint16 freeLoopbackPort() {
        const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (fd < 0)
            return 0;
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        address.sin_port = 0;
        socklen_t length = sizeof(address);
        quint16 port = 0;
        if (::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)) == 0 &&
            ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) == 0)
            port = ntohs(address.sin_port);
        ::close(fd);
        return port;
    }

    static bool canConnect(quint16 port) {
        const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (fd < 0)
            return false;
        timeval timeout{1, 0}; // a connect on loopback answers at once; this only bounds a wedged one
        ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof(timeout));
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        address.sin_port = htons(port);
        const bool connected = ::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)) == 0;
        ::close(fd);
        return connected;
    }

    QString configuration() const {
        const QString w = work_ + u'/';
        QString c;
        // One process that stays in the foreground: QProcess owns it, and without a master there is no
        // privilege drop, so it reads the test's private temporary folders even when run as root.
        c += QStringLiteral("daemon off;\nmaster_process off;\n");
        c += QStringLiteral("error_log %1 info;\n").arg(quoted(errorLogPath()));
        c += QStringLiteral("pid %1;\n").arg(quoted(pidPath()));
        c += QStringLiteral("events {\n    worker_connections 64;\n}\n");
        c += QStringLiteral("http {\n");
        c += QStringLiteral("    log_format sahaj '$status $request_method $uri \"$http_range\" "
                            "$body_bytes_sent';\n");
        c += QStringLiteral("    access_log %1 sahaj;\n").arg(quoted(accessLogPath()));
        // nginx's compiled-in temporary folders are under /var/lib/nginx, which a test may not write.
        for (const char* kind : {"client_body", "proxy", "fastcgi", "uwsgi", "scgi"})
            c += QStringLiteral("    %1_temp_path %2;\n")
                     .arg(QLatin1String(kind), quoted(w + QLatin1String(kind) + QStringLiteral("_temp")));
        c += QStringLiteral("    types {\n        application/octet-stream bin;\n    }\n");
        c += QStringLiteral("    default_type application/octet-stream;\n");
        c += QStringLiteral("    sendfile on;\n");
        c += QStringLiteral("    server {\n");
        c += QStringLiteral("        listen 127.0.0.1:%1;\n").arg(port_);
        c += QStringLiteral("        root %1;\n").arg(quoted(served_));
        c += QStringLiteral("        location / {\n        }\n");
        c += QStringLiteral("        location /slow/ {\n            alias %1;\n            limit_rate %2;\n"
                            "        }\n")
                 .arg(quoted(served_ + u'/'), QString::number(slowRate_));
        c += QStringLiteral("        location /stall/ {\n            alias %1;\n            limit_rate 1;\n"
                            "        }\n")
                 .arg(quoted(served_ + u'/'));
        c += QStringLiteral("    }\n}\n");
        return c;
    }

    QString pidPath() const { return work_ + QStringLiteral("/nginx.pid"); }

    QByteArray errorLogSince(qint64 offset) const {
        QFile file(errorLogPath());
        if (!file.open(QIODevice::ReadOnly) || !file.seek(qMin(offset, file.size())))
            return {};
        return file.readAll();
    }

    // nginx writes its pid file only after it has bound its port, so a pid file naming our child proves
    // the port is ours and not some other program's that took it in between.
    bool pidFileIsOurs() const {
        QFile file(pidPath());
        if (!file.open(QIODevice::ReadOnly))
            return false;
        return file.readAll().trimmed().toLongLong() == process_.processId();
    }

    QString failureText(const QString& what, qint64 logOffset) {
        QString text = what;
        const QString log = QString::fromUtf8(errorLogSince(logOffset)).trimmed();
        const QStringList lines = log.split(u'\n', Qt::SkipEmptyParts);
        if (!lines.isEmpty())
            text += QStringLiteral("\nerror.log:\n") + lines.mid(qMax(0, lines.size() - 20)).join(u'\n');
        const QString output = QString::fromUtf8(process_.readAll()).trimmed();
        if (!output.isEmpty())
            text += QStringLiteral("\nnginx output:\n") + output;
        return text;
    }

    Outcome startOnce(QString* failure) {
        QFile config(configPath());
        const QByteArray text = configuration().toUtf8();
        if (!config.open(QIODevice::WriteOnly | QIODevice::Truncate) || config.write(text) != text.size()) {
            *failure = QStringLiteral("cannot write %1").arg(configPath());
            return Outcome::Failed;
        }
        config.close();
        QFile::remove(pidPath()); // a killed nginx leaves its pid file behind
        const qint64 logOffset = QFileInfo(errorLogPath()).size();

        process_.setProcessChannelMode(QProcess::MergedChannels);
#ifdef __linux__
        // A test that crashes must not leave a web server behind on the CI machine.
        process_.setChildProcessModifier([] { ::prctl(PR_SET_PDEATHSIG, SIGKILL); });
#endif
        // -e sends the messages of the start, before the configuration is read, to the same log.
        process_.start(QString::fromLatin1(kExecutable),
                       {QStringLiteral("-p"), work_ + u'/', QStringLiteral("-c"), configPath(),
                        QStringLiteral("-e"), errorLogPath()});
        if (!process_.waitForStarted(5000)) {
            *failure = QStringLiteral("nginx did not start: ") + process_.errorString();
            return Outcome::Failed;
        }

        const QDeadlineTimer deadline(kStartDeadlineMs);
        while (!deadline.hasExpired()) {
            // nginx retries a taken port for a few seconds before it gives up; the log says so at once.
            if (errorLogSince(logOffset).contains("Address already in use")) {
                *failure = failureText(QStringLiteral("port %1 is taken").arg(port_), logOffset);
                stop();
                return Outcome::PortTaken;
            }
            if (pidFileIsOurs() && canConnect(port_))
                return Outcome::Started;
            if (process_.waitForFinished(20)) {
                *failure = failureText(QStringLiteral("nginx exited with status %1").arg(process_.exitCode()),
                                       logOffset);
                return Outcome::Failed;
            }
        }
        *failure = failureText(QStringLiteral("nginx did not accept connections on port %1 within %2 s")
                                   .arg(port_)
                                   .arg(kStartDeadlineMs / 1000),
                               logOffset);
        stop();
        return Outcome::Failed;
    }

    QString served_;
    QString work_;
    qint64 slowRate_ = 64 * 1024;
    quint16 port_ = 0;
    bool portKept_ = false; // set by the first successful start: later starts keep the address
    QProcess process_;
};

} // namespace sahaj::test
