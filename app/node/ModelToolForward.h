#pragma once

#include "app/node/ModelToolCommands.h"
#include "app/node/NodeCommand.h"

namespace sahaj::node {

// One of the model tool commands in sahaj-node (ModelToolCommands.h): sahaj-node links no libtorch, so it
// finds the installed cpu core's sahaj-model (engine::CoreLocator::modelTools) and replaces itself with
// it, arguments, standard streams, signals and exit status unchanged.
class ModelToolForward : public NodeCommand {
public:
    explicit ModelToolForward(const ModelToolCommand& command) : command_(command) {}
    QString name() const override { return QLatin1String(command_.name); }
    QString summary() const override { return QLatin1String(command_.summary); }
    void addOptions(QCommandLineParser&) const override {}
    int run(const QCommandLineParser&) override;
    bool forwardsArguments() const override { return true; }
    int forward(const QStringList& arguments) override;

private:
    ModelToolCommand command_;
};

} // namespace sahaj::node
