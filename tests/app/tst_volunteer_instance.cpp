// One desktop app per settings file: a second launch brings the first one's window forward and exits,
// `--quit` stops the running app and returns once it has stopped, and the lock of an app that was killed is
// taken over. Real sahaj-volunteer processes (offscreen), each test with a home folder of its own.
#include "tests/common/NodeProcess.h"

#include <QFile>
#include <QProcess>
#include <QProcessEnvironment>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>

class TestVolunteerInstance : public QObject {
    Q_OBJECT

    using Result = sahaj::test::NodeRun;

    QTemporaryDir home_;
    QString settings_;

    QProcessEnvironment environment() const {
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(QStringLiteral("HOME"), home_.path());
        environment.insert(QStringLiteral("XDG_CONFIG_HOME"), home_.filePath(QStringLiteral("config")));
        environment.insert(QStringLiteral("XDG_DATA_HOME"), home_.filePath(QStringLiteral("data")));
        environment.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        return environment;
    }

    QStringList arguments(QStringList extra = {}) const {
        return QStringList{QStringLiteral("--settings"), settings_, QStringLiteral("--language"),
                           QStringLiteral("en")} +
               extra;
    }

    // A launch that is expected to end by itself (a second launch, --quit).
    Result run(const QStringList& extra) const {
        return sahaj::test::runProgram(QStringLiteral(SAHAJ_VOLUNTEER), arguments(extra), environment(), {},
                                       90000);
    }

    // Starts the app that stays, and waits until it holds the lock (within a minute).
    bool startFirst(QProcess& app) const {
        app.setProcessEnvironment(environment());
        app.start(QStringLiteral(SAHAJ_VOLUNTEER), arguments());
        return app.waitForStarted(30000) && holdsTheLock(app);
    }

    // Whether `app` comes to hold the lock within a minute: QLockFile writes its holder's pid first.
    bool holdsTheLock(QProcess& app) const {
        for (int i = 0; i < 600 && app.state() == QProcess::Running; ++i) {
            QFile lock(settings_ + QStringLiteral(".instance.lock"));
            if (lock.open(QIODevice::ReadOnly) && lock.readLine().trimmed().toLongLong() == app.processId())
                return true;
            QTest::qWait(100);
        }
        return false;
    }

    // What `app` printed on stdout, waiting up to 20 s for `text` to appear.
    static QString waitForOutput(QProcess& app, const QString& text, QString& seen) {
        for (int i = 0; i < 200 && !seen.contains(text); ++i) {
            app.waitForReadyRead(100);
            seen += QString::fromUtf8(app.readAllStandardOutput());
        }
        return seen;
    }

    static void stop(QProcess& app) {
        if (app.state() != QProcess::NotRunning) {
            app.kill();
            app.waitForFinished();
        }
    }

private Q_SLOTS:
    void init() {
        QVERIFY(home_.isValid());
        settings_ = home_.filePath(QStringLiteral("settings-%1.ini").arg(QTest::currentTestFunction()));
    }

    void aSecondLaunchShowsTheFirstAndQuitStopsIt() {
        QProcess first;
        const auto cleanup = qScopeGuard([&] { stop(first); });
        QVERIFY2(startFirst(first), qPrintable(QString::fromUtf8(first.readAllStandardError())));

        const Result second = run({});
        QVERIFY2(
            second.status == 0 && second.out.contains(QStringLiteral("already running")),
            qPrintable(QStringLiteral("status %1: %2%3").arg(second.status).arg(second.out, second.err)));
        QString seen;
        QVERIFY2(waitForOutput(first, QStringLiteral("asked for the window"), seen)
                     .contains(QStringLiteral("asked for the window")),
                 qPrintable(seen));
        QCOMPARE(first.state(), QProcess::Running); // the first app still runs: nothing started twice

        const Result quit = run({QStringLiteral("--quit")});
        QVERIFY2(quit.status == 0 && quit.out.contains(QStringLiteral("has stopped")),
                 qPrintable(QStringLiteral("status %1: %2%3").arg(quit.status).arg(quit.out, quit.err)));
        // --quit returns once the lock is free, which the app releases as it ends.
        QVERIFY(first.waitForFinished(30000));
        QCOMPARE(first.exitStatus(), QProcess::NormalExit);
        QCOMPARE(first.exitCode(), 0);

        const Result none = run({QStringLiteral("--quit")});
        QVERIFY2(none.status == 1 && none.err.contains(QStringLiteral("not running")),
                 qPrintable(QStringLiteral("status %1: %2%3").arg(none.status).arg(none.out, none.err)));
    }

    void theLockOfAKilledAppIsTakenOver() {
        QProcess first;
        const auto cleanupFirst = qScopeGuard([&] { stop(first); });
        QVERIFY(startFirst(first));
        ::kill(static_cast<pid_t>(first.processId()), SIGKILL);
        QVERIFY(first.waitForFinished(30000));
        // Its lock file and socket are still there; the next launch is the app all the same.
        QVERIFY(QFile::exists(settings_ + QStringLiteral(".instance.lock")));
        QProcess next;
        const auto cleanupNext = qScopeGuard([&] { stop(next); });
        next.setProcessEnvironment(environment());
        next.start(QStringLiteral(SAHAJ_VOLUNTEER), arguments());
        QVERIFY(next.waitForStarted(30000));
        QVERIFY2(holdsTheLock(next), qPrintable(QString::fromUtf8(next.readAllStandardError())));
        const Result quit = run({QStringLiteral("--quit")});
        QVERIFY2(quit.status == 0 && quit.out.contains(QStringLiteral("has stopped")),
                 qPrintable(QStringLiteral("status %1: %2%3").arg(quit.status).arg(quit.out, quit.err) +
                            QString::fromUtf8(next.readAllStandardError())));
        QVERIFY(next.waitForFinished(30000));
        QCOMPARE(next.exitStatus(), QProcess::NormalExit); // seen: a crash on quitting (exit code 11)
        QCOMPARE(next.exitCode(), 0);
    }
};

QTEST_GUILESS_MAIN(TestVolunteerInstance)
#include "tst_volunteer_instance.moc"
