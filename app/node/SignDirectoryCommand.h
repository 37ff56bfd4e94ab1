#pragma once

#include "app/node/NodeCommand.h"

namespace sahaj::node {

// `sahaj-node sign-directory`: sign a list of runs for volunteers to choose from (run::RunDirectory,
// docs/joining.md).
class SignDirectoryCommand : public NodeCommand {
public:
    QString name() const override { return QStringLiteral("sign-directory"); }
    QString summary() const override {
        return QStringLiteral("Sign a run directory: the list of runs volunteers choose from in the app");
    }
    QString description() const override;
    void addOptions(QCommandLineParser& parser) const override;
    int run(const QCommandLineParser& parser) override;
};

} // namespace sahaj::node
