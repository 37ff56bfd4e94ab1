#pragma once

#include <QLockFile>
#include <QObject>
#include <QString>

#include <memory>

class QLocalServer;
class QLocalSocket;

namespace sahaj::volunteer {

// One app per settings file, as BOINC Manager, Folding@home and qBittorrent run one per user: the first
// launch holds a lock beside the settings and listens on a local socket only its user may open; a later
// launch asks it to show its window (or, with --quit, to stop) and exits instead of training twice with one
// identity. A launch that finds the app starting or stopping (the lock held, nobody listening yet or any
// more) tries again until its deadline, so relaunching right after Quit waits for the old process to end.
class SingleInstance : public QObject {
    Q_OBJECT
public:
    enum class Request { Show, Quit };
    enum class Outcome {
        First,       // this launch is the app: it holds the lock and listens
        Told,        // another app runs and was told the request
        NoneRunning, // a Quit request found no app to stop
        Failed,      // see claim()'s `problem`
    };

    explicit SingleInstance(const QString& settingsPath);
    ~SingleInstance() override;

    // Becomes the one app for these settings, or tells the running one `request` (Quit: and waits until it
    // has stopped). Waits at most `waitMs` for an app that is starting or stopping.
    Outcome claim(Request request, int waitMs, QString* problem);

    // The local socket's name for `settingsPath`: a digest of its absolute path, so that each settings file
    // (a user's, a test's) has its own app.
    static QString serverNameFor(const QString& settingsPath);

    // The app is stopping: it answers no more requests, so that a new launch waits for the lock instead of
    // asking an app that is about to be gone to show its window.
    void stopListening();

Q_SIGNALS:
    void showRequested();
    void quitRequested();

private:
    bool tell(Request request);
    bool listen(QString* problem);
    void readRequest(QLocalSocket* socket);
    void release();

    QString lockPath_;
    QString serverName_;
    std::unique_ptr<QLockFile> lock_;
    QLocalServer* server_ = nullptr;
};

} // namespace sahaj::volunteer
