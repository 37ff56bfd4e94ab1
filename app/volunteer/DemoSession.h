#pragma once

#include "app/node/DemoFiles.h"
#include "core/engine/LocalCollaboration.h"

#include <QObject>
#include <QString>

#include <condition_variable>
#include <mutex>
#include <thread>

namespace sahaj::volunteer {

// The embedded collaboration of `sahaj-volunteer --demo`: a coordinator (in the Netherlands) and two
// volunteers (one in India, one a client in Germany, with different upload caps so the bandwidth panel has
// something to show) as sahaj-node processes on loopback, which this app then joins like any run. Started on
// a thread of its own (run-init and the coordinator take several seconds, the window stays responsive) which
// also owns the processes and stops them when the session ends.
class DemoSession : public QObject {
    Q_OBJECT
public:
    DemoSession(node::DemoFiles files, QString folder, QObject* parent = nullptr);
    // Stops the peers (they leave politely) and waits for them.
    ~DemoSession() override;

    void start();
    const QString& folder() const { return folder_; }
    const node::DemoFiles& files() const { return files_; }
    // Once ready: the coordinator's model as it started (a copy kept before anyone trained), and its folder,
    // which holds the trained model once the peers stopped.
    const QString& modelBefore() const { return modelBefore_; }
    const QString& modelAfter() const { return modelAfter_; }
    // The run reached its last step: stops the peers (they leave, the coordinator saves its model), then
    // emits peersStopped().
    void finish();

    // The collaboration the session starts in `folder` with `files`: the demo's training
    // (LocalCollaboration::DemoTraining), as `sahaj-node demo` trains.
    static engine::LocalCollaboration::Options collaborationOptions(const node::DemoFiles& files,
                                                                    const QString& folder);

Q_SIGNALS:
    void ready(const QString& joinFile);
    void failed(const QString& why);
    void peersStopped();

private:
    node::DemoFiles files_;
    QString folder_;
    QString modelBefore_;
    QString modelAfter_;
    std::thread thread_;
    std::mutex mutex_;
    std::condition_variable stopped_;
    bool stopping_ = false;
    bool finishing_ = false;
};

} // namespace sahaj::volunteer
