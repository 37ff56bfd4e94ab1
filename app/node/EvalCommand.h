#pragma once

#include "app/node/NodeCommand.h"

namespace sahaj::node {

// `sahaj-node eval`: masked-LM and sentence-order loss and accuracy of a pre-trained model.
class EvalCommand : public NodeCommand {
public:
    QString name() const override { return QStringLiteral("eval"); }
    QString summary() const override {
        return QStringLiteral("Masked-LM and sentence-order loss and accuracy of a model");
    }
    QString description() const override;
    void addOptions(QCommandLineParser& parser) const override;
    int run(const QCommandLineParser& parser) override;
};

} // namespace sahaj::node
