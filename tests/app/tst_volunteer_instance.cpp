// One desktop app per settings file: a second launch brings the first one's window forward and exits,
// `--quit` stops the running app and returns once it has stopped, and the lock of an app that was killed is
// taken over. Real sahaj-volunteer processes (offscreen), each test with a home folder of its own.
#include "tests/common/NodeProcess.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QProcessEnvironment>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
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
        // The demo's folder too (a killed demo cannot remove it).
        QDir().mkpath(home_.filePath(QStringLiteral("tmp")));
        environment.insert(QStringLiteral("TMPDIR"), home_.filePath(QStringLiteral("tmp")));
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

    // A logout or `kill` quits as Quit does: the app leaves and ends normally (before, SIGTERM killed it
    // outright, and a demo's peers ran on without it).
    void terminationQuitsPolitely() {
        QProcess app;
        const auto cleanup = qScopeGuard([&] { stop(app); });
        QVERIFY(startFirst(app));
        QString seen;
        waitForOutput(app, QStringLiteral("sahaj-volunteer"), seen); // its first line: the event loop runs
        ::kill(static_cast<pid_t>(app.processId()), SIGTERM);
        QVERIFY(app.waitForFinished(40000));
        seen += QString::fromUtf8(app.readAllStandardOutput());
        QCOMPARE(app.exitStatus(), QProcess::NormalExit);
        QCOMPARE(app.exitCode(), 0);
        QVERIFY2(seen.contains(QStringLiteral("quitting")), qPrintable(seen));
        const Result none = run({QStringLiteral("--quit")});
        QVERIFY2(none.status == 1 && none.err.contains(QStringLiteral("not running")),
                 qPrintable(QStringLiteral("status %1: %2%3").arg(none.status).arg(none.out, none.err)));
    }

    // The demo's coordinator and volunteers are processes of the app's: they end with it even when it is
    // killed outright (SIGKILL gives it no chance to stop them).
    void aKilledDemoTakesItsPeersWithIt() {
        QProcess app;
        const auto cleanup = qScopeGuard([&] { stop(app); });
        // The demo's text and tokenizer: the tests' own (a fresh clone has not built the demo's corpus).
        const QString demo = home_.filePath(QStringLiteral("demo"));
        QVERIFY(QDir().mkpath(demo));
        const QString source = qEnvironmentVariable("SAHAJ_SOURCE_DIR");
        const QString tokenizer = qEnvironmentVariable("SAHAJ_SAMPLE_TOKENIZER");
        QVERIFY2(!source.isEmpty() && !tokenizer.isEmpty(),
                 "SAHAJ_SOURCE_DIR and SAHAJ_SAMPLE_TOKENIZER must be set");
        QVERIFY(QFile::copy(source + QStringLiteral("/tests/train/data/bengali-sample.txt"),
                            demo + QStringLiteral("/train.txt")));
        QVERIFY(QFile::copy(tokenizer, demo + QStringLiteral("/tokenizer.json")));
        QProcessEnvironment withDemo = environment();
        withDemo.insert(QStringLiteral("SAHAJ_DEMO_DIR"), demo);
        app.setProcessEnvironment(withDemo);
        app.start(QStringLiteral(SAHAJ_VOLUNTEER),
                  {QStringLiteral("--demo"), QStringLiteral("--language"), QStringLiteral("en")});
        QVERIFY(app.waitForStarted(30000));
        QList<qint64> peers;
        const auto reap = qScopeGuard([&] { // a failure leaves no collaboration running
            for (const qint64 peer : peers)
                ::kill(static_cast<pid_t>(peer), SIGKILL);
        });
        for (int i = 0; i < 1200 && peers.size() < 3 && app.state() == QProcess::Running; ++i) {
            QTest::qWait(100);
            peers = childrenOf(app.processId(), QByteArrayLiteral("sahaj-node"));
        }
        QVERIFY2(peers.size() == 3, qPrintable(QString::fromUtf8(app.readAllStandardError())));
        ::kill(static_cast<pid_t>(app.processId()), SIGKILL);
        QVERIFY(app.waitForFinished(30000));
        for (int i = 0; i < 600 && std::any_of(peers.begin(), peers.end(), alive); ++i)
            QTest::qWait(100);
        for (const qint64 peer : peers)
            QVERIFY2(!alive(peer), qPrintable(QStringLiteral("peer %1 outlived the app").arg(peer)));
    }

private:
    // The processes whose parent is `parent` and whose command is `name`, from /proc.
    static QList<qint64> childrenOf(qint64 parent, const QByteArray& name) {
        QList<qint64> found;
        for (const QString& entry : QDir(QStringLiteral("/proc")).entryList(QDir::Dirs)) {
            bool isPid = false;
            const qint64 pid = entry.toLongLong(&isPid);
            if (!isPid)
                continue;
            QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
            if (!stat.open(QIODevice::ReadOnly))
                continue;
            // "pid (comm) state ppid ...": comm may hold spaces, so read after its closing parenthesis.
            const QByteArray line = stat.readAll();
            const qsizetype close = line.lastIndexOf(')');
            const QList<QByteArray> rest = line.mid(close + 2).split(' ');
            if (close > 0 && rest.size() > 1 && rest[1].toLongLong() == parent &&
                line.mid(line.indexOf('(') + 1, close - line.indexOf('(') - 1) == name)
                found.append(pid);
        }
        return found;
    }

    // Alive and not a zombie waiting for its parent to collect it.
    static bool alive(qint64 pid) {
        QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
        if (!stat.open(QIODevice::ReadOnly))
            return false;
        const QByteArray line = stat.readAll();
        return line.mid(line.lastIndexOf(')') + 2, 1) != "Z";
    }
};

QTEST_GUILESS_MAIN(TestVolunteerInstance)
#include "tst_volunteer_instance.moc"
