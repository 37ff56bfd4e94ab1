#include "app/volunteer/DemoSession.h"

#include "core/engine/LocalCollaboration.h"

namespace sahaj::volunteer {

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

void DemoSession::start() {
    thread_ = std::thread([this] {
        const auto post = [this](auto call) {
            QMetaObject::invokeMethod(this, std::move(call), Qt::QueuedConnection);
        };
        try {
            engine::LocalCollaboration::Options options;
            options.nodeProgram = files_.nodeProgram;
            options.folder = folder_;
            options.corpus = files_.corpus;
            options.tokenizer = files_.tokenizer;
            options.runId = QStringLiteral("sahaj-demo");
            options.targetBatch = 512;
            options.totalSteps = 100000; // runs until the app quits
            options.peerArguments = {"--gather-ms", "3000", "--min-gather-ms", "1000", "--threads", "1"};
            options.coordinatorArguments = {"--country", "NL"};
            engine::LocalCollaboration collaboration(options);
            collaboration.addVolunteer(QStringLiteral("volunteer-in"),
                                       {"--country", "IN", "--seed", "11", "--max-upload-mbps", "400"});
            collaboration.addVolunteer(
                QStringLiteral("client-de"),
                {"--country", "DE", "--seed", "12", "--client-mode", "--max-upload-mbps", "60"});
            post([this, join = collaboration.joinFile()] { Q_EMIT ready(join); });
            std::unique_lock lock(mutex_);
            stopped_.wait(lock, [this] { return stopping_; });
            // The collaboration's destructor stops the peers on this thread, which owns their processes.
        } catch (const std::exception& e) {
            post([this, why = QString::fromStdString(e.what())] { Q_EMIT failed(why); });
        }
    });
}

} // namespace sahaj::volunteer
