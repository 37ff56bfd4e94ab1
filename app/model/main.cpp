// sahaj-model: the model tools of the cpu compute core (docs/compute-cores.md). sahaj-node links no
// libtorch and hands these commands over to this executable, so a user runs them as
// `sahaj-node train-local|eval|fill-mask|finetune|model-info ...`; their help and errors say so.
#include "app/model/EvalCommand.h"
#include "app/model/FillMaskCommand.h"
#include "app/model/FinetuneCommand.h"
#include "app/model/ModelInfoCommand.h"
#include "app/model/TrainLocalCommand.h"
#include "app/node/CommandLine.h"
#include "core/Version.h"

#include <QCoreApplication>

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName("sahaj-node");
    QCoreApplication::setApplicationVersion(sahaj::kVersion);

    sahaj::node::CommandLine commandLine;
    commandLine.add(std::make_unique<sahaj::node::ModelInfoCommand>());
    commandLine.add(std::make_unique<sahaj::node::TrainLocalCommand>());
    commandLine.add(std::make_unique<sahaj::node::EvalCommand>());
    commandLine.add(std::make_unique<sahaj::node::FillMaskCommand>());
    commandLine.add(std::make_unique<sahaj::node::FinetuneCommand>());
    return commandLine.run(QCoreApplication::arguments());
}
