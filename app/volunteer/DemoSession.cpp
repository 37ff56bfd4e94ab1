#include "app/volunteer/DemoSession.h"

namespace sahaj::volunteer {

engine::LocalCollaboration::Options DemoSession::collaborationOptions(const node::DemoFiles& files,
                                                                      const QString& folder) {
    // The demo's schedule as it is (DemoTraining::scheduleSteps): this run has no step count to stretch it
    // to, and a schedule long enough to run for hours would hold the rate near its peak until the model
    // diverged. The rate falls to 0 over 100 steps and the run ends there, some minutes in.
    engine::LocalCollaboration::Options options = engine::LocalCollaboration::DemoTraining().options();
    options.nodeProgram = files.nodeProgram;
    options.folder = folder;
    options.corpus = files.corpus;
    options.tokenizer = files.tokenizer;
    options.runId = QStringLiteral("sahaj-demo");
    options.peerArguments += QStringList{"--threads", "1"};
    options.coordinatorArguments = {"--country", "NL"};
    return options;
}

DemoSession::DemoSession(node::DemoFiles files, QString folder, QObject* parent)
    : QObject(parent), files_(std::move(files)), folder_(std::move(folder)) {}

DemoSession::~DemoSession() {
    {
        const std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    stopped_.notify_all();
    if (thread_.joinable())
        thread_.join();
}

void DemoSession::finish() {
    {
        const std::lock_guard lock(mutex_);
        finishing_ = true;
    }
    stopped_.notify_all();
}

void DemoSession::start() {
    thread_ = std::thread([this] {
        const auto post = [this](auto call) {
            QMetaObject::invokeMethod(this, std::move(call), Qt::QueuedConnection);
        };
        try {
            engine::LocalCollaboration collaboration(collaborationOptions(files_, folder_));
            // Before any volunteer trains: the untrained model, for the fill-mask example at the end.
            const QString before = collaboration.keepUntrainedModel();
            collaboration.addVolunteer(QStringLiteral("volunteer-in"),
                                       {"--country", "IN", "--seed", "11", "--max-upload-mbps", "400"});
            collaboration.addVolunteer(
                QStringLiteral("client-de"),
                {"--country", "DE", "--seed", "12", "--client-mode", "--max-upload-mbps", "60"});
            post([this, join = collaboration.joinFile(), before, after = collaboration.coordinatorModel()] {
                modelBefore_ = before;
                modelAfter_ = after;
                Q_EMIT ready(join);
            });
            std::unique_lock lock(mutex_);
            stopped_.wait(lock, [this] { return stopping_ || finishing_; });
            if (!stopping_) {
                lock.unlock();
                collaboration.stopAll();
                post([this] { Q_EMIT peersStopped(); });
                lock.lock();
                stopped_.wait(lock, [this] { return stopping_; });
            }
            // The collaboration's destructor stops the peers on this thread, which owns their processes.
        } catch (const std::exception& e) {
            post([this, why = QString::fromStdString(e.what())] { Q_EMIT failed(why); });
        }
    });
}

} // namespace sahaj::volunteer
