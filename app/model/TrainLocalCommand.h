#pragma once

#include "app/node/ModelToolCommands.h"
#include "app/node/NodeCommand.h"

namespace sahaj::node {

// `sahaj-node train-local`: train a model on this machine alone, with checkpoints.
class TrainLocalCommand : public NodeCommand {
public:
    QString name() const override { return QStringLiteral("train-local"); }
    QString summary() const override { return modelToolSummary(name()); }
    QString description() const override;
    void addOptions(QCommandLineParser& parser) const override;
    int run(const QCommandLineParser& parser) override;
};

} // namespace sahaj::node
