#pragma once

#include <QCommandLineParser>
#include <QString>
#include <QStringList>
#include <QTextStream>

namespace sahaj::node {

// `sahaj-node auth issue-token`: signs an access token with the organiser's key without a running
// coordinator, for an organiser who admits a peer by hand (and for tests, which need tokens of any age).
// Keys are only ever read here: a key created by mistake would sign, or be admitted, in nobody's name.
class IssueTokenCommand {
public:
    static constexpr qint64 kDefaultValidSeconds = 6 * 60 * 60;
    static constexpr qint64 kMaxValidSeconds = 365 * 24 * 60 * 60;

    // The lines of `sahaj-node help auth` that describe the action.
    static QString description();
    // Declares the options only this action takes (--user is shared with add-user and declared there).
    static void addOptions(QCommandLineParser& parser);
    // The names of the options this action accepts, --user included.
    static QStringList optionNames();

    // Checks every option, then writes the token to --out and prints one line about it to `out`. Throws
    // UsageError for a bad option (nothing is written) and std::exception for a key that cannot be read
    // or a file that cannot be written.
    static void run(const QCommandLineParser& parser, QTextStream& out);
};

} // namespace sahaj::node
