#pragma once

// Runs the real sahaj-node executable (named by SAHAJ_NODE, which CTest sets), or another of ours, for
// integration tests.

#include <QByteArray>
#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

namespace sahaj::test {

struct NodeRun {
    int status = -1; // exit status; -1 when it crashed, did not start or ran past the timeout
    QString out;
    QString err;
};

inline QString nodeExecutable() {
    return qEnvironmentVariable("SAHAJ_NODE");
}

// Starts `program` with `arguments` (and `environment`, unless empty: the test's own), writes `input` to its
// standard input, waits up to `timeoutMs`.
inline NodeRun runProgram(const QString& program, const QStringList& arguments,
                          const QProcessEnvironment& environment = {}, const QByteArray& input = {},
                          int timeoutMs = 120000) {
    QProcess process;
    if (!environment.isEmpty())
        process.setProcessEnvironment(environment);
    process.start(program, arguments);
    NodeRun run;
    if (!process.waitForStarted()) {
        run.err = program + QStringLiteral(" did not start: ") + process.errorString();
        return run;
    }
    process.write(input);
    process.closeWriteChannel();
    if (!process.waitForFinished(timeoutMs)) {
        process.kill();
        process.waitForFinished();
        run.err = program + QStringLiteral(" ran past the test's timeout");
        return run;
    }
    run.status = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    run.out = QString::fromUtf8(process.readAllStandardOutput());
    run.err = QString::fromUtf8(process.readAllStandardError());
    return run;
}

// Starts sahaj-node with `arguments`, writes `input` to its standard input, waits up to `timeoutMs`.
inline NodeRun runNode(const QStringList& arguments, const QByteArray& input = {}, int timeoutMs = 120000) {
    return runProgram(nodeExecutable(), arguments, {}, input, timeoutMs);
}

} // namespace sahaj::test
