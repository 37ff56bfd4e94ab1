#pragma once

#include "app/node/NodeCommand.h"

namespace sahaj::node {

// `sahaj-node volunteer`: join a run and train with the others until stopped.
class VolunteerCommand : public NodeCommand {
public:
    QString name() const override { return QStringLiteral("volunteer"); }
    QString summary() const override {
        return QStringLiteral("Join a collaboration and train with its peers");
    }
    QString description() const override;
    void addOptions(QCommandLineParser& parser) const override;
    int run(const QCommandLineParser& parser) override;
};

} // namespace sahaj::node
