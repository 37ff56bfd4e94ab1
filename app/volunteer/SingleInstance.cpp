#include "app/volunteer/SingleInstance.h"

#include <QCryptographicHash>
#include <QDeadlineTimer>
#include <QFileInfo>
#include <QLocalServer>
#include <QLocalSocket>
#include <QThread>
#include <QTimer>

namespace sahaj::volunteer {

namespace {

// A request is one short line; anything longer is not ours and is dropped with its connection.
constexpr qint64 kMaxRequestBytes = 16;
constexpr int kSocketWaitMs = 2000;
constexpr int kRetryMs = 200;

QByteArray wordFor(SingleInstance::Request request) {
    return request == SingleInstance::Request::Quit ? QByteArrayLiteral("quit\n")
                                                    : QByteArrayLiteral("show\n");
}

} // namespace

SingleInstance::SingleInstance(const QString& settingsPath)
    : lockPath_(QFileInfo(settingsPath).absoluteFilePath() + QStringLiteral(".instance.lock")),
      serverName_(serverNameFor(settingsPath)) {}

SingleInstance::~SingleInstance() {
    release();
}

QString SingleInstance::serverNameFor(const QString& settingsPath) {
    const QByteArray digest = QCryptographicHash::hash(QFileInfo(settingsPath).absoluteFilePath().toUtf8(),
                                                       QCryptographicHash::Sha256);
    return QStringLiteral("sahaj-volunteer-") + QString::fromLatin1(digest.toHex().left(24));
}

SingleInstance::Outcome SingleInstance::claim(Request request, int waitMs, QString* problem) {
    const QDeadlineTimer deadline(waitMs);
    bool told = false;
    for (;;) {
        auto lock = std::make_unique<QLockFile>(lockPath_);
        // A lock whose process is gone is stale whatever its age (QLockFile checks the pid).
        lock->setStaleLockTime(0);
        if (lock->tryLock(0)) {
            if (request == Request::Quit) {
                // Nothing runs (any more): a Quit that was told waited for exactly this.
                return told ? Outcome::Told : Outcome::NoneRunning;
            }
            lock_ = std::move(lock);
            if (!listen(problem)) {
                release();
                return Outcome::Failed;
            }
            return Outcome::First;
        }
        if (lock->error() != QLockFile::LockFailedError) {
            *problem = QStringLiteral("cannot create the lock %1 (is its folder writable?)").arg(lockPath_);
            return Outcome::Failed;
        }
        if (!told && tell(request)) {
            if (request == Request::Show)
                return Outcome::Told;
            told = true; // a Quit waits for the lock: then the app has stopped
        }
        if (deadline.hasExpired()) {
            *problem =
                told ? QStringLiteral("Sahaj was asked to quit but still runs after %1 s").arg(waitMs / 1000)
                     : QStringLiteral("another Sahaj holds %1 but does not answer (still starting or "
                                      "stopping after %2 s)")
                           .arg(lockPath_)
                           .arg(waitMs / 1000);
            return Outcome::Failed;
        }
        QThread::msleep(kRetryMs);
    }
}

bool SingleInstance::tell(Request request) {
    QLocalSocket socket;
    socket.connectToServer(serverName_);
    if (!socket.waitForConnected(kSocketWaitMs))
        return false;
    socket.write(wordFor(request));
    if (!socket.waitForBytesWritten(kSocketWaitMs))
        return false;
    // The app answers once it has read the request: until then it may not have acted on it.
    return socket.waitForReadyRead(kSocketWaitMs) && socket.readAll().startsWith("ok");
}

bool SingleInstance::listen(QString* problem) {
    server_ = new QLocalServer(this);
    server_->setSocketOptions(QLocalServer::UserAccessOption);
    // A socket file left by an app that crashed: this launch holds the lock, so nobody listens on it.
    QLocalServer::removeServer(serverName_);
    if (!server_->listen(serverName_)) {
        *problem = QStringLiteral("cannot listen on the local socket %1: %2")
                       .arg(serverName_, server_->errorString());
        return false;
    }
    connect(server_, &QLocalServer::newConnection, this, [this] {
        while (QLocalSocket* socket = server_->nextPendingConnection()) {
            connect(socket, &QLocalSocket::disconnected, socket, &QObject::deleteLater);
            connect(socket, &QLocalSocket::readyRead, this, [this, socket] { readRequest(socket); });
        }
    });
    return true;
}

void SingleInstance::readRequest(QLocalSocket* socket) {
    if (!socket->canReadLine()) {
        if (socket->bytesAvailable() > kMaxRequestBytes)
            socket->abort();
        return;
    }
    const QByteArray word = socket->readLine(kMaxRequestBytes).trimmed();
    if (word != "show" && word != "quit") {
        socket->abort();
        return;
    }
    socket->write("ok\n");
    socket->flush();
    // Acted on from the event loop, not from inside this socket's signal: quitting stops listening, which
    // deletes the server and its sockets, this one among them.
    const bool show = word == "show";
    QTimer::singleShot(0, this, [this, show] {
        if (show)
            Q_EMIT showRequested();
        else
            Q_EMIT quitRequested();
    });
}

void SingleInstance::stopListening() {
    if (server_) {
        server_->close();
        // Later: a socket of the server may be the one whose request led here.
        server_->deleteLater();
        server_ = nullptr;
    }
}

void SingleInstance::release() {
    stopListening();
    if (lock_) {
        lock_->unlock();
        lock_.reset();
    }
}

} // namespace sahaj::volunteer
