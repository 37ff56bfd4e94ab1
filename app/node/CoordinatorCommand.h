#pragma once

#include "app/node/NodeCommand.h"

namespace sahaj::node {

// `sahaj-node coordinator`: the organiser's peer of a run — the DHT bootstrap node, an aggregator that
// keeps the model (weight 0), the checkpointing backup, and the metrics collector.
class CoordinatorCommand : public NodeCommand {
public:
    QString name() const override { return QStringLiteral("coordinator"); }
    QString summary() const override {
        return QStringLiteral(
            "Run a collaboration's coordinator: bootstrap, aggregator, checkpoints, metrics");
    }
    QString description() const override;
    void addOptions(QCommandLineParser& parser) const override;
    int run(const QCommandLineParser& parser) override;
};

} // namespace sahaj::node
