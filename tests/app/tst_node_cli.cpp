// Runs the real sahaj-node executable and checks its command-line contract: version, help, and
// exit status 2 with a clear message for every kind of invocation mistake.
#include "tests/common/NodeProcess.h"

#include <QtTest>

using sahaj::test::NodeRun;
using sahaj::test::runNode;

class TestNodeCli : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QVERIFY2(QFile::exists(qEnvironmentVariable("SAHAJ_NODE")), "SAHAJ_NODE not set"); }

    void versionPrintsProjectVersion() {
        const NodeRun r = runNode({"--version"});
        QCOMPARE(r.status, 0);
        QVERIFY2(QRegularExpression(R"(^sahaj-node \d+\.\d+\.\d+\n$)").match(r.out).hasMatch(),
                 qPrintable(r.out));
    }

    void helpListsEveryCommand() {
        const NodeRun r = runNode({"--help"});
        QCOMPARE(r.status, 0);
        for (const char* command : {"model-info", "tokenize", "tokenizer-train", "train-local", "help"})
            QVERIFY2(r.out.contains(QString("  ") + command + " "), command);
    }

    void helpForEachCommandShowsItsOptions_data() {
        QTest::addColumn<QString>("command");
        QTest::addColumn<QString>("option");
        QTest::newRow("model-info") << "model-info"
                                    << "--config";
        QTest::newRow("tokenize") << "tokenize"
                                  << "--tokenizer";
        QTest::newRow("tokenizer-train") << "tokenizer-train"
                                         << "--corpus";
        QTest::newRow("train-local") << "train-local"
                                     << "--steps";
    }
    void helpForEachCommandShowsItsOptions() {
        QFETCH(QString, command);
        QFETCH(QString, option);
        const NodeRun r = runNode({"help", command});
        QCOMPARE(r.status, 0);
        QVERIFY2(r.out.startsWith("Usage: sahaj-node " + command), qPrintable(r.out));
        QVERIFY2(r.out.contains(option), qPrintable(r.out));
        // `COMMAND --help` prints the same text.
        QCOMPARE(runNode({command, "--help"}).out, r.out);
    }

    void mistakesExitWithStatusTwo_data() {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("message");
        QTest::newRow("no arguments") << QStringList{} << "Usage: sahaj-node";
        QTest::newRow("unknown command") << QStringList{"frobnicate"} << "unknown command 'frobnicate'";
        QTest::newRow("unknown global option") << QStringList{"--frob"} << "unknown option '--frob'";
        QTest::newRow("help of unknown command") << QStringList{"help", "frob"} << "unknown command 'frob'";
        QTest::newRow("unknown command option")
            << QStringList{"model-info", "--frob"} << "Unknown option 'frob'";
        QTest::newRow("stray positional")
            << QStringList{"model-info", "--config", "tiny", "extra"} << "unexpected argument 'extra'";
        QTest::newRow("missing value")
            << QStringList{"model-info", "--config"} << "Missing value after '--config'";
    }
    void mistakesExitWithStatusTwo() {
        QFETCH(QStringList, arguments);
        QFETCH(QString, message);
        const NodeRun r = runNode(arguments);
        QCOMPARE(r.status, 2);
        QVERIFY2(r.err.contains(message), qPrintable(r.err));
        QVERIFY(r.out.isEmpty());
    }

    // Only the compute cores link libtorch (docs/compute-cores.md): sahaj-node loads none of it.
    void theNodeLoadsNoTorch() {
        QProcess ldd;
        ldd.start("ldd", {sahaj::test::nodeExecutable()});
        QVERIFY(ldd.waitForFinished(60000));
        const QString libraries = QString::fromUtf8(ldd.readAllStandardOutput());
        QVERIFY2(libraries.contains("libQt6Core"), qPrintable(libraries));
        QVERIFY2(!libraries.contains("libtorch") && !libraries.contains("libc10"), qPrintable(libraries));
    }

    // The model commands run in the cpu core's sahaj-model: a sahaj-node without cores says so, and finds
    // them where SAHAJ_CORES_DIR points.
    void theModelCommandsRunInTheCpuCore() {
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkpath("bin"));
        const QString lone = dir.filePath("bin/sahaj-node");
        QVERIFY(QFile::copy(sahaj::test::nodeExecutable(), lone));
        QVERIFY(QFile::setPermissions(lone, QFile::permissions(lone) | QFileDevice::ExeOwner));
        const auto runLone = [&](const QString& coresDir, const QStringList& arguments) {
            QProcess process;
            QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
            environment.remove("SAHAJ_CORES_DIR");
            if (!coresDir.isEmpty())
                environment.insert("SAHAJ_CORES_DIR", coresDir);
            process.setProcessEnvironment(environment);
            process.start(lone, arguments);
            process.waitForFinished(120000);
            return std::make_pair(process.exitCode(), QString::fromUtf8(process.readAllStandardOutput() +
                                                                        process.readAllStandardError()));
        };
        const auto [missingStatus, missing] = runLone({}, {"model-info", "--config", "tiny"});
        QCOMPARE(missingStatus, 1);
        QVERIFY2(
            missing.contains("the model tools (sahaj-model, part of the cpu compute core) are not installed"),
            qPrintable(missing));
        // The build tree's cores: build/cores beside build/app/node/sahaj-node.
        const QString cores = QFileInfo(sahaj::test::nodeExecutable()).dir().filePath("../../cores");
        const auto [status, info] = runLone(cores, {"model-info", "--config", "tiny"});
        QCOMPARE(status, 0);
        QVERIFY2(info.contains("parameters: 556,882"), qPrintable(info));
        const auto [usageStatus, usage] = runLone(cores, {"eval", "--frob"});
        QCOMPARE(usageStatus, 2);
        QVERIFY2(usage.contains("sahaj-node eval: Unknown option 'frob'"), qPrintable(usage));
    }
};

QTEST_GUILESS_MAIN(TestNodeCli)
#include "tst_node_cli.moc"
