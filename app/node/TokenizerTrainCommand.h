#pragma once

#include "app/node/NodeCommand.h"

namespace sahaj::node {

// `sahaj-node tokenizer-train`: train a Unigram tokenizer on a corpus and write tokenizer.json.
class TokenizerTrainCommand : public NodeCommand {
public:
    QString name() const override { return QStringLiteral("tokenizer-train"); }
    QString summary() const override {
        return QStringLiteral("Train a Unigram tokenizer on a corpus and write tokenizer.json");
    }
    QString description() const override;
    void addOptions(QCommandLineParser& parser) const override;
    int run(const QCommandLineParser& parser) override;
};

} // namespace sahaj::node
