#pragma once

#include "app/node/NodeCommand.h"

namespace sahaj::node {

// `sahaj-node tokenize`: tokenize UTF-8 lines from standard input into JSON arrays of ids.
class TokenizeCommand : public NodeCommand {
public:
    QString name() const override { return QStringLiteral("tokenize"); }
    QString summary() const override {
        return QStringLiteral("Tokenize UTF-8 lines from standard input into JSON arrays of ids");
    }
    QString description() const override;
    void addOptions(QCommandLineParser& parser) const override;
    int run(const QCommandLineParser& parser) override;
};

} // namespace sahaj::node
