#pragma once

#include "app/node/NodeCommand.h"

namespace sahaj::node {

// `sahaj-node finetune`: fine-tune a pre-trained model for NER or text classification and report scores.
class FinetuneCommand : public NodeCommand {
public:
    QString name() const override { return QStringLiteral("finetune"); }
    QString summary() const override {
        return QStringLiteral("Fine-tune a model for NER or text classification and score it");
    }
    QString description() const override;
    void addOptions(QCommandLineParser& parser) const override;
    int run(const QCommandLineParser& parser) override;
};

} // namespace sahaj::node
