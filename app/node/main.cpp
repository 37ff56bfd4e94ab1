#include "app/node/AuthCommand.h"
#include "app/node/CommandLine.h"
#include "app/node/CoordinatorCommand.h"
#include "app/node/DemoCommand.h"
#include "app/node/DetectGpusCommand.h"
#include "app/node/ModelToolForward.h"
#include "app/node/RunInitCommand.h"
#include "app/node/ShardCommand.h"
#include "app/node/SignDirectoryCommand.h"
#include "app/node/TokenizeCommand.h"
#include "app/node/TokenizerTrainCommand.h"
#include "app/node/VolunteerCommand.h"
#include "core/Version.h"
#include "core/engine/MallocPolicy.h"

#include <QCoreApplication>

int main(int argc, char** argv) {
    sahaj::engine::MallocPolicy::apply();
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName("sahaj-node");
    QCoreApplication::setApplicationVersion(sahaj::kVersion);

    sahaj::node::CommandLine commandLine;
    for (const sahaj::node::ModelToolCommand& command : sahaj::node::kModelToolCommands)
        commandLine.add(std::make_unique<sahaj::node::ModelToolForward>(command));
    commandLine.add(std::make_unique<sahaj::node::TokenizeCommand>());
    commandLine.add(std::make_unique<sahaj::node::TokenizerTrainCommand>());
    commandLine.add(std::make_unique<sahaj::node::ShardCommand>());
    commandLine.add(std::make_unique<sahaj::node::RunInitCommand>());
    commandLine.add(std::make_unique<sahaj::node::SignDirectoryCommand>());
    commandLine.add(std::make_unique<sahaj::node::CoordinatorCommand>());
    commandLine.add(std::make_unique<sahaj::node::VolunteerCommand>());
    commandLine.add(std::make_unique<sahaj::node::DemoCommand>());
    commandLine.add(std::make_unique<sahaj::node::AuthCommand>());
    commandLine.add(std::make_unique<sahaj::node::DetectGpusCommand>());
    return commandLine.run(QCoreApplication::arguments());
}
