#pragma once

#include <QCommandLineParser>
#include <QString>
#include <QStringList>

namespace sahaj::node {

// One subcommand of sahaj-node. The dispatcher builds a parser, lets the command declare its options,
// parses, and calls run(). run() returns the process exit status (0 success, 1 failure); it throws
// UsageError for invocation mistakes (exit 2) and std::exception for runtime failures (exit 1).
class NodeCommand {
public:
    virtual ~NodeCommand() = default;
    virtual QString name() const = 0;
    // One line for the command overview.
    virtual QString summary() const = 0;
    // Longer text printed by `sahaj-node help NAME` above the option list.
    virtual QString description() const { return summary(); }
    virtual void addOptions(QCommandLineParser& parser) const = 0;
    // Whether positional arguments are allowed (declared in addOptions with addPositionalArgument);
    // otherwise the dispatcher refuses any as a usage error.
    virtual bool takesArguments() const { return false; }
    virtual int run(const QCommandLineParser& parser) = 0;
    // Whether another executable carries the command out (the model tools, ModelToolCommands.h): the
    // dispatcher then parses nothing and hands forward() the arguments, the command's name first
    // (`help NAME` becomes NAME --help). forward() returns the exit status only when it could not hand over.
    virtual bool forwardsArguments() const { return false; }
    virtual int forward(const QStringList& arguments);
};

} // namespace sahaj::node
