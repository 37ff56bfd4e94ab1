#pragma once

#include "app/node/NodeCommand.h"

namespace sahaj::node {

// `sahaj-node auth add-user|add-invites|issue-token`: the organiser's tools for deciding who may join a
// run: the allowlist of users and passwords (Argon2id hashes), the single-use invite codes, and access
// tokens signed by hand (see IssueTokenCommand).
class AuthCommand : public NodeCommand {
public:
    QString name() const override { return QStringLiteral("auth"); }
    QString summary() const override {
        return QStringLiteral("Add users to an allowlist, create invite codes, or issue access tokens");
    }
    QString description() const override;
    void addOptions(QCommandLineParser& parser) const override;
    bool takesArguments() const override { return true; }
    int run(const QCommandLineParser& parser) override;
};

} // namespace sahaj::node
