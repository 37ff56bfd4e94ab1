#pragma once

#include "app/node/NodeCommand.h"

namespace sahaj::node {

// `sahaj-node demo`: a whole collaboration on this machine — a coordinator and N + M volunteers as
// separate processes on loopback — trained for K global steps, with live progress and DIR/summary.json.
class DemoCommand : public NodeCommand {
public:
    QString name() const override { return QStringLiteral("demo"); }
    QString summary() const override {
        return QStringLiteral("Run a local collaboration (coordinator + volunteers on loopback) for K steps");
    }
    QString description() const override;
    void addOptions(QCommandLineParser& parser) const override;
    int run(const QCommandLineParser& parser) override;
};

} // namespace sahaj::node
