#pragma once

#include "app/node/ModelToolCommands.h"
#include "app/node/NodeCommand.h"

namespace sahaj::node {

// `sahaj-node fill-mask`: the most likely tokens for each [MASK] of a text.
class FillMaskCommand : public NodeCommand {
public:
    QString name() const override { return QStringLiteral("fill-mask"); }
    QString summary() const override { return modelToolSummary(name()); }
    QString description() const override;
    void addOptions(QCommandLineParser& parser) const override;
    bool takesArguments() const override { return true; }
    int run(const QCommandLineParser& parser) override;
};

} // namespace sahaj::node
