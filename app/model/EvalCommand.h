#pragma once

#include "app/node/ModelToolCommands.h"
#include "app/node/NodeCommand.h"

namespace sahaj::node {

// `sahaj-node eval`: masked-LM and sentence-order loss and accuracy of a pre-trained model.
class EvalCommand : public NodeCommand {
public:
    QString name() const override { return QStringLiteral("eval"); }
    QString summary() const override { return modelToolSummary(name()); }
    QString description() const override;
    void addOptions(QCommandLineParser& parser) const override;
    int run(const QCommandLineParser& parser) override;
};

} // namespace sahaj::node
