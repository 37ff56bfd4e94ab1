#pragma once

#include <QObject>

class QSocketNotifier;

namespace sahaj::volunteer {

// SIGTERM, SIGINT and SIGHUP (a logout, `kill`, Ctrl+C in a terminal, systemd stopping the session) as a
// Qt signal, so that the app quits as Quit does: it leaves the run, and the demo stops its peers, instead of
// dying with children that would run on. The handler only writes a byte to a socket pair (all a signal
// handler may safely do); the event loop reads it. A second signal while stopping ends the process at once,
// as users expect of a second Ctrl+C. One per process.
class StopSignalNotifier : public QObject {
    Q_OBJECT
public:
    explicit StopSignalNotifier(QObject* parent = nullptr);
    ~StopSignalNotifier() override;

Q_SIGNALS:
    void stopRequested(int signalNumber);

private:
    QSocketNotifier* notifier_ = nullptr;
};

} // namespace sahaj::volunteer
