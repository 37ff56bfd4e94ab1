#include "app/node/AuthCommand.h"

#include "app/node/CommandLine.h"
#include "app/node/IssueTokenCommand.h"
#include "app/node/UsageError.h"
#include "core/security/AllowList.h"
#include "core/security/InviteList.h"
#include "core/security/Username.h"

#include <QFile>
#include <QTextStream>

#include <cstdio>
#include <stdexcept>

#ifdef Q_OS_UNIX
#include <termios.h>
#include <unistd.h>
#endif

namespace sahaj::node {

namespace {

constexpr qint64 kMaxPasswordBytes = 1024;

// Turns off the terminal's echo while a password is typed; restores it on destruction. Does nothing when
// standard input is not a terminal (a pipe, a file).
class HiddenInput {
public:
    HiddenInput() {
#ifdef Q_OS_UNIX
        if (::isatty(STDIN_FILENO) && ::tcgetattr(STDIN_FILENO, &saved_) == 0) {
            termios quiet = saved_;
            quiet.c_lflag &= ~static_cast<tcflag_t>(ECHO);
            active_ = ::tcsetattr(STDIN_FILENO, TCSAFLUSH, &quiet) == 0;
        }
#endif
    }
    ~HiddenInput() {
#ifdef Q_OS_UNIX
        if (active_)
            ::tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved_);
#endif
    }
    HiddenInput(const HiddenInput&) = delete;
    HiddenInput& operator=(const HiddenInput&) = delete;

private:
#ifdef Q_OS_UNIX
    termios saved_{};
#endif
    bool active_ = false;
};

bool stdinIsTerminal() {
#ifdef Q_OS_UNIX
    return ::isatty(STDIN_FILENO);
#else
    return false;
#endif
}

// One line of standard input without its line ending. Refuses an empty or over-long one: a password typed
// by mistake into the wrong place is better stopped than stored.
QByteArray readPassword(const QString& user) {
    QTextStream err(stderr);
    if (stdinIsTerminal()) {
        err << "Password for " << user << ": ";
        err.flush();
    }
    QByteArray line;
    {
        const HiddenInput hidden;
        QFile in;
        if (!in.open(stdin, QIODevice::ReadOnly))
            throw std::runtime_error("cannot read the password from standard input");
        line = in.readLine(kMaxPasswordBytes + 2);
    }
    if (stdinIsTerminal())
        err << "\n";
    const bool ended = line.endsWith('\n');
    if (ended)
        line.chop(1);
    if (line.endsWith('\r'))
        line.chop(1);
    if (!ended && line.size() > kMaxPasswordBytes)
        throw std::runtime_error(QStringLiteral("the password on standard input is longer than %1 bytes")
                                     .arg(kMaxPasswordBytes)
                                     .toStdString());
    if (line.isEmpty())
        throw std::runtime_error("no password on standard input: give it as one non-empty line");
    return line;
}

// Refuses an option that belongs to another action: it would otherwise be silently ignored.
void refuseOtherOptions(const QCommandLineParser& parser, const QString& action, const QStringList& allowed) {
    for (const QString& option : parser.optionNames())
        if (!allowed.contains(option))
            throw UsageError(QStringLiteral("--%1 does not apply to %2").arg(option, action).toStdString());
}

} // namespace

QString AuthCommand::description() const {
    return QStringLiteral(
               "Manage who may join a run.\n"
               "  auth add-user --file FILE --user NAME\n"
               "      Sets NAME's password in the allowlist FILE (created, readable by its owner only, if "
               "absent).\n"
               "      The password is read from standard input, one line; only its Argon2id hash is stored.\n"
               "  auth add-invites --file FILE --count N\n"
               "      Creates N single-use invite codes, prints them one per line, and stores only their "
               "SHA-256\n"
               "      in FILE. The codes are shown this once: hand each to one person.\n") +
           IssueTokenCommand::description();
}

void AuthCommand::addOptions(QCommandLineParser& parser) const {
    parser.addPositionalArgument("ACTION", "add-user, add-invites or issue-token.");
    parser.addOption({"file", "The allowlist (add-user) or invite list (add-invites) to update.", "FILE"});
    parser.addOption({"user",
                      "add-user, issue-token: the user name (A-Z, a-z, 0-9 and . _ @ -, at most 64; "
                      "issue-token's default: offline).",
                      "NAME"});
    parser.addOption({"count",
                      QStringLiteral("add-invites: how many codes to create (1 to %1).")
                          .arg(security::InviteList::kMaxInvitesPerCall),
                      "N"});
    IssueTokenCommand::addOptions(parser);
}

int AuthCommand::run(const QCommandLineParser& parser) {
    const QStringList arguments = parser.positionalArguments();
    if (arguments.size() != 1)
        throw UsageError(
            QStringLiteral("expected one action, add-user, add-invites or issue-token; got %1 arguments")
                .arg(arguments.size())
                .toStdString());
    const QString action = arguments.front();
    QTextStream out(stdout);
    if (action == "add-user") {
        refuseOtherOptions(parser, action, {"file", "user"});
        const QString file = CommandLine::requiredValue(parser, "file");
        const QString user = CommandLine::requiredValue(parser, "user");
        // Checked before the password is asked for: a typo in the name should not cost typing it.
        if (const QString problem = security::Username::problem(user.toUtf8()); !problem.isEmpty())
            throw UsageError(QStringLiteral("--user: %1").arg(problem).toStdString());
        QByteArray password = readPassword(user);
        security::AllowList::addUser(file, user, password);
        password.fill('\0'); // best effort: no copy of the password left in freed memory
        out << "set the password of user " << user << " in " << file << "\n";
        return 0;
    }
    if (action == "add-invites") {
        refuseOtherOptions(parser, action, {"file", "count"});
        const QString file = CommandLine::requiredValue(parser, "file");
        CommandLine::requiredValue(parser, "count");
        const auto count = static_cast<int>(
            CommandLine::integerValue(parser, "count", 1, 1, security::InviteList::kMaxInvitesPerCall));
        for (const QString& code : security::InviteList::addInvites(file, count))
            out << code << "\n";
        return 0;
    }
    if (action == "issue-token") {
        refuseOtherOptions(parser, action, IssueTokenCommand::optionNames());
        IssueTokenCommand::run(parser, out);
        return 0;
    }
    throw UsageError(QStringLiteral("unknown action '%1' (expected add-user, add-invites or issue-token)")
                         .arg(action)
                         .toStdString());
}

} // namespace sahaj::node
