// Runs the real sahaj-node model-info: the sahajbert parameter count, JSON output, config files and
// directories, and exit status 1 with a clear message for bad config files.
#include "core/model/AlbertConfig.h"
#include "tests/common/NodeProcess.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

namespace {

using sahaj::test::runNode;
using Result = sahaj::test::NodeRun;

// The number on the "parameters: 18,105,474" line, or -1.
qint64 parametersLine(const QString& out) {
    const auto match =
        QRegularExpression(R"(^parameters: ([\d,]+)$)", QRegularExpression::MultilineOption).match(out);
    if (!match.hasMatch())
        return -1;
    QString digits = match.captured(1);
    return digits.remove(',').toLongLong();
}

void writeFile(const QString& path, const QByteArray& content) {
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(content);
}

} // namespace

class TestModelInfo : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

private Q_SLOTS:
    void initTestCase() { QVERIFY2(QFile::exists(qEnvironmentVariable("SAHAJ_NODE")), "SAHAJ_NODE not set"); }

    void sahajbertHasAbout18MillionParameters() {
        const Result r = runNode({"model-info", "--config", "sahajbert"});
        QCOMPARE(r.status, 0);
        const qint64 count = parametersLine(r.out);
        QVERIFY2(count >= 18'000'000 && count <= 18'300'000, qPrintable(r.out));
        QCOMPARE(count, sahaj::model::AlbertConfig::named("sahajbert").parameterCount());
        QVERIFY2(r.out.contains("hidden_size: 1024\n"), qPrintable(r.out));
        QVERIFY2(r.out.contains("num_hidden_layers: 24 "), qPrintable(r.out));
        // fp16 takes two bytes a parameter: about 36 MB.
        const QString fp16 = QString::number(count * 2 / 1e6, 'f', 1);
        QVERIFY2(r.out.contains("size fp16: " + fp16 + " MB\n"), qPrintable(r.out));
        QVERIFY(r.err.isEmpty());
    }

    void jsonOutput() {
        const Result r = runNode({"model-info", "--config", "small", "--json"});
        QCOMPARE(r.status, 0);
        QJsonParseError error;
        const QJsonObject info = QJsonDocument::fromJson(r.out.toUtf8(), &error).object();
        QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(r.out));
        const auto small = sahaj::model::AlbertConfig::named("small");
        QCOMPARE(info["parameters"].toInteger(), small.parameterCount());
        QCOMPARE(info["size_bytes"].toObject()["float16"].toInteger(), small.parameterCount() * 2);
        QCOMPARE(info["config"].toObject()["hidden_size"].toInt(), 256);
        QCOMPARE(info["config"].toObject()["model_type"].toString(), QString("albert"));
        QCOMPARE(info["config_source"].toString(), QString("small"));
    }

    void configFileAndModelDirectory() {
        sahaj::model::AlbertConfig config = sahaj::model::AlbertConfig::named("tiny");
        config.numHiddenGroups = 2;
        QVERIFY(QDir(dir_.path()).mkpath("model"));
        const QString file = dir_.filePath("model/config.json");
        config.saveFile(file.toStdString());
        for (const QString& argument : {file, dir_.filePath("model")}) {
            const Result r = runNode({"model-info", "--config", argument});
            QCOMPARE(r.status, 0);
            QCOMPARE(parametersLine(r.out), config.parameterCount());
            QVERIFY2(r.out.contains("2 group(s) x 1 layer(s)"), qPrintable(r.out));
        }
    }

    void badConfigFilesExitWithStatusOne_data() {
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QString>("message");
        QTest::newRow("not JSON") << QByteArray("{\"hidden_size\": ") << "is not valid JSON";
        QTest::newRow("wrong type") << QByteArray(R"({"hidden_size": "big"})")
                                    << "\"hidden_size\" must be an integer";
        QTest::newRow("heads") << QByteArray(R"({"hidden_size": 30, "num_attention_heads": 4})")
                               << "hidden_size (30) must be a multiple of num_attention_heads (4)";
        QTest::newRow("not albert") << QByteArray(R"({"model_type": "bert"})")
                                    << "\"model_type\" must be \"albert\"";
    }
    void badConfigFilesExitWithStatusOne() {
        QFETCH(QByteArray, content);
        QFETCH(QString, message);
        const QString path = dir_.filePath("bad-config.json");
        writeFile(path, content);
        const Result r = runNode({"model-info", "--config", path});
        QCOMPARE(r.status, 1);
        QVERIFY2(r.err.contains("sahaj-node model-info: error: "), qPrintable(r.err));
        QVERIFY2(r.err.contains("bad-config.json"), qPrintable(r.err));
        QVERIFY2(r.err.contains(message), qPrintable(r.err));
        QVERIFY(r.out.isEmpty());
    }

    void directoryWithoutConfigExitsWithStatusOne() {
        QVERIFY(QDir(dir_.path()).mkpath("empty"));
        const Result r = runNode({"model-info", "--config", dir_.filePath("empty")});
        QCOMPARE(r.status, 1);
        QVERIFY2(r.err.contains("cannot open model config") && r.err.contains("config.json"),
                 qPrintable(r.err));
    }

    void unknownNameIsAUsageError() {
        const Result r = runNode({"model-info", "--config", "gigantic"});
        QCOMPARE(r.status, 2);
        QVERIFY2(r.err.contains("'gigantic' is neither a known config name (sahajbert, small, tiny)"),
                 qPrintable(r.err));
    }
};

QTEST_GUILESS_MAIN(TestModelInfo)
#include "tst_model_info.moc"
