#include "app/node/CommandLine.h"

#include "app/node/UsageError.h"
#include "core/Version.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QTextStream>

#include <cstdio>
#include <exception>

namespace sahaj::node {

namespace {

constexpr int kExitFailure = 1;
constexpr int kExitUsage = 2;

} // namespace

int NodeCommand::forward(const QStringList&) {
    CommandLine::err() << "sahaj-node " << name()
                       << ": this command is not carried out by another executable\n";
    return kExitFailure;
}

void CommandLine::add(std::unique_ptr<NodeCommand> command) {
    commands_.push_back(std::move(command));
}

NodeCommand* CommandLine::find(const QString& name) const {
    for (const auto& command : commands_) {
        if (command->name() == name)
            return command.get();
    }
    return nullptr;
}

QString CommandLine::overview() const {
    QString text;
    QTextStream s(&text);
    s << "Usage: sahaj-node COMMAND [options]\n"
      << "       sahaj-node help COMMAND\n"
      << "       sahaj-node --version | --help\n\n"
      << "Sahaj trains a shared model together with volunteers over the Internet.\n\n"
      << "Commands:\n";
    for (const auto& command : commands_)
        s << "  " << command->name().leftJustified(18) << command->summary() << "\n";
    s << "  " << QString("help").leftJustified(18) << "Show the options of a command\n";
    return text;
}

QString CommandLine::commandHelp(const NodeCommand& command) const {
    QCommandLineParser parser;
    parser.setApplicationDescription(command.description());
    command.addOptions(parser);
    QString text = parser.helpText();
    // QCommandLineParser names the executable (its path, even) but not the subcommand: say both.
    const qsizetype lineEnd = text.indexOf('\n');
    const qsizetype options = text.indexOf(QStringLiteral(" [options]"));
    if (text.startsWith(QStringLiteral("Usage: ")) && options > 0 && options < lineEnd)
        text.replace(0, options, QStringLiteral("Usage: sahaj-node %1").arg(command.name()));
    return text;
}

int CommandLine::run(const QStringList& arguments) {
    const QStringList args = arguments.mid(1);
    if (args.isEmpty()) {
        err() << overview();
        return kExitUsage;
    }
    const QString& first = args.front();
    if (first == "--version" || first == "-v") {
        out() << "sahaj-node " << kVersion << "\n";
        return 0;
    }
    if (first == "--help" || first == "-h") {
        out() << overview();
        return 0;
    }
    if (first == "help") {
        if (args.size() == 1) {
            out() << overview();
            return 0;
        }
        if (args.size() > 2) {
            err() << "sahaj-node help: expected one command name, got " << args.size() - 1 << "\n";
            return kExitUsage;
        }
        NodeCommand* command = find(args.at(1));
        if (!command) {
            err() << "sahaj-node help: unknown command '" << args.at(1) << "'\n"
                  << "Run 'sahaj-node --help' for the list of commands.\n";
            return kExitUsage;
        }
        if (command->forwardsArguments())
            return command->forward({command->name(), QStringLiteral("--help")});
        out() << commandHelp(*command);
        return 0;
    }
    NodeCommand* command = find(first);
    if (!command) {
        err() << "sahaj-node: unknown " << (first.startsWith('-') ? "option" : "command") << " '" << first
              << "'\nRun 'sahaj-node --help' for the list of commands.\n";
        return kExitUsage;
    }
    if (command->forwardsArguments()) {
        out().flush();
        return command->forward(args);
    }
    return runCommand(*command, args);
}

int CommandLine::runCommand(NodeCommand& command, const QStringList& arguments) {
    QCommandLineParser parser;
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    const QCommandLineOption helpOption({"h", "help"}, "Show this help.");
    parser.addOption(helpOption);
    command.addOptions(parser);
    // arguments[0] is the command name and stands in for the program name QCommandLineParser skips.
    const auto usageFail = [&](const QString& message) {
        err() << "sahaj-node " << command.name() << ": " << message << "\n"
              << "Run 'sahaj-node help " << command.name() << "' for its options.\n";
        return kExitUsage;
    };
    if (!parser.parse(arguments))
        return usageFail(parser.errorText());
    if (parser.isSet(helpOption)) {
        out() << commandHelp(command);
        return 0;
    }
    if (!command.takesArguments() && !parser.positionalArguments().isEmpty())
        return usageFail(
            QStringLiteral("unexpected argument '%1'").arg(parser.positionalArguments().front()));
    try {
        const int status = command.run(parser);
        out().flush();
        return status;
    } catch (const UsageError& e) {
        out().flush();
        return usageFail(QString::fromStdString(e.what()));
    } catch (const std::exception& e) {
        out().flush();
        err() << "sahaj-node " << command.name() << ": error: " << e.what() << "\n";
        return kExitFailure;
    }
}

QTextStream& CommandLine::out() {
    static QTextStream stream(stdout);
    return stream;
}

QTextStream& CommandLine::err() {
    static QTextStream stream(stderr);
    return stream;
}

QString CommandLine::requiredValue(const QCommandLineParser& parser, const QString& option) {
    if (!parser.isSet(option) || parser.value(option).isEmpty())
        throw UsageError("missing required option --" + option.toStdString());
    return parser.value(option);
}

QString CommandLine::existingFile(const QString& option, const QString& value) {
    const QFileInfo info(value);
    if (!info.exists())
        throw UsageError(QStringLiteral("--%1: no such file '%2'").arg(option, value).toStdString());
    if (!info.isFile() || !info.isReadable())
        throw UsageError(
            QStringLiteral("--%1: '%2' is not a readable file").arg(option, value).toStdString());
    return info.absoluteFilePath();
}

namespace {

// Parses an option's value as a number in [min, max]; `kind` names the expected kind in the error.
template <typename Number, typename Parse>
Number boundedValue(const QCommandLineParser& parser, const QString& option, Number fallback, Number min,
                    Number max, const char* kind, Parse parse) {
    if (!parser.isSet(option))
        return fallback;
    bool ok = false;
    const Number value = parse(parser.value(option), &ok);
    if (!ok || !(value >= min && value <= max))
        throw UsageError(QStringLiteral("--%1 must be %2 in [%3, %4], got '%5'")
                             .arg(option, QLatin1String(kind))
                             .arg(min)
                             .arg(max)
                             .arg(parser.value(option))
                             .toStdString());
    return value;
}

} // namespace

long long CommandLine::integerValue(const QCommandLineParser& parser, const QString& option,
                                    long long fallback, long long min, long long max) {
    return boundedValue(parser, option, fallback, min, max, "an integer",
                        [](const QString& text, bool* ok) { return text.toLongLong(ok); });
}

double CommandLine::realValue(const QCommandLineParser& parser, const QString& option, double fallback,
                              double min, double max) {
    return boundedValue(parser, option, fallback, min, max, "a number",
                        [](const QString& text, bool* ok) { return text.toDouble(ok); });
}

} // namespace sahaj::node
