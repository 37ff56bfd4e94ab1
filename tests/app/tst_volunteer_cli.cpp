// The desktop app's command line on a machine without a display (a server, CI, an ssh session): --help
// and --version answer (before, QApplication aborted first), and a start without a display says what to
// run instead, with exit status 2, instead of aborting.
#include "tests/common/NodeProcess.h"

#include <QProcess>
#include <QProcessEnvironment>
#include <QTest>

class TestVolunteerCli : public QObject {
    Q_OBJECT

    static sahaj::test::NodeRun run(const QStringList& arguments) {
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        for (const char* name : {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"})
            environment.remove(QString::fromLatin1(name));
        return sahaj::test::runProgram(QStringLiteral(SAHAJ_VOLUNTEER), arguments, environment, {}, 60000);
    }

private Q_SLOTS:
    void helpAndVersionNeedNoDisplay() {
        const sahaj::test::NodeRun help = run({QStringLiteral("--help")});
        QCOMPARE(help.status, 0);
        QVERIFY2(help.out.contains(QStringLiteral("--demo")), qPrintable(help.out + help.err));
        const sahaj::test::NodeRun version = run({QStringLiteral("--version")});
        QCOMPARE(version.status, 0);
        QVERIFY2(!version.out.trimmed().isEmpty(), qPrintable(version.err));
    }

    void withoutADisplayItSaysWhatToRunInstead() {
        const sahaj::test::NodeRun start = run({});
        QCOMPARE(start.status, 2);
        QVERIFY2(start.err.contains(QStringLiteral("no display")) &&
                     start.err.contains(QStringLiteral("sahaj-node volunteer")),
                 qPrintable(start.err));
        QCOMPARE(run({QStringLiteral("--language"), QStringLiteral("fr")}).status, 2);
    }
};

QTEST_GUILESS_MAIN(TestVolunteerCli)
#include "tst_volunteer_cli.moc"
