#pragma once

#include "app/node/NodeCommand.h"

namespace sahaj::node {

// `sahaj-node auth add-user|add-invites`: the organiser's tools for the files that decide who may join a
// run: the allowlist of users and passwords (Argon2id hashes) and the single-use invite codes.
class AuthCommand : public NodeCommand {
public:
    QString name() const override { return QStringLiteral("auth"); }
    QString summary() const override {
        return QStringLiteral("Add users to an allowlist, or create invite codes");
    }
    QString description() const override;
    void addOptions(QCommandLineParser& parser) const override;
    bool takesArguments() const override { return true; }
    int run(const QCommandLineParser& parser) override;
};

} // namespace sahaj::node
