#pragma once

#include "app/node/ModelToolCommands.h"
#include "app/node/NodeCommand.h"

namespace sahaj::node {

// `sahaj-node model-info --config NAME|PATH [--json]`: prints a model config's sizes, its parameter count
// (tied weights counted once) and the size of the weights in fp32 and fp16.
class ModelInfoCommand : public NodeCommand {
public:
    QString name() const override { return QStringLiteral("model-info"); }
    QString summary() const override { return modelToolSummary(name()); }
    QString description() const override;
    void addOptions(QCommandLineParser& parser) const override;
    int run(const QCommandLineParser& parser) override;
};

} // namespace sahaj::node
