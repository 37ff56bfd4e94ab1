#pragma once

#include "app/node/ModelToolCommands.h"
#include "app/node/NodeCommand.h"

namespace sahaj::node {

// `sahaj-node finetune`: fine-tune a pre-trained model for NER or text classification and report scores.
class FinetuneCommand : public NodeCommand {
public:
    QString name() const override { return QStringLiteral("finetune"); }
    QString summary() const override { return modelToolSummary(name()); }
    QString description() const override;
    void addOptions(QCommandLineParser& parser) const override;
    int run(const QCommandLineParser& parser) override;
};

} // namespace sahaj::node
