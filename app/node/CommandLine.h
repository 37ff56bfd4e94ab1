#pragma once

#include "app/node/NodeCommand.h"

#include <QStringList>
#include <QTextStream>

#include <memory>
#include <vector>

namespace sahaj::node {

// Dispatches `sahaj-node [--version|--help] | help [COMMAND] | COMMAND [options]`.
class CommandLine {
public:
    void add(std::unique_ptr<NodeCommand> command);
    // Returns the exit status: 0 success, 1 runtime failure, 2 usage error.
    int run(const QStringList& arguments);

    // Helpers for commands: typed access to option values with clear usage errors.
    static QString requiredValue(const QCommandLineParser& parser, const QString& option);
    static long long integerValue(const QCommandLineParser& parser, const QString& option, long long fallback,
                                  long long min, long long max);
    // The absolute path of `value`, given for --option; UsageError unless it is an existing readable file.
    static QString existingFile(const QString& option, const QString& value);
    static double realValue(const QCommandLineParser& parser, const QString& option, double fallback,
                            double min, double max);
    // Standard output and error as text streams, one each for the whole program (flushed by the caller).
    static QTextStream& out();
    static QTextStream& err();

private:
    NodeCommand* find(const QString& name) const;
    QString overview() const;
    QString commandHelp(const NodeCommand& command) const;
    int runCommand(NodeCommand& command, const QStringList& arguments);

    std::vector<std::unique_ptr<NodeCommand>> commands_;
};

} // namespace sahaj::node
