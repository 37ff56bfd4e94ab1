#pragma once

#include "app/node/NodeCommand.h"

namespace sahaj::node {

// `sahaj-node run-init`: write the run manifest that describes a collaboration (docs/run-manifest.md).
class RunInitCommand : public NodeCommand {
public:
    QString name() const override { return QStringLiteral("run-init"); }
    QString summary() const override {
        return QStringLiteral("Write a run manifest: the model, data and recipe a collaboration shares");
    }
    QString description() const override;
    void addOptions(QCommandLineParser& parser) const override;
    int run(const QCommandLineParser& parser) override;
};

} // namespace sahaj::node
