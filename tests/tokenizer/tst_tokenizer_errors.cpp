// A tokenizer.json that cannot be used must be refused with a message that names the file and the
// problem, never crash or load into something that tokenizes differently.
#include "TinyTokenizerJson.h"

#include "core/text/Tokenizer.h"

#include <QTemporaryDir>
#include <QTest>

using namespace sahaj::text;
using namespace sahaj::text::testing;

namespace {

// The message of the TokenizerError that loading `json` throws; empty when it loads.
QString loadError(const QByteArray& json) {
    try {
        Tokenizer::fromJson(json, QStringLiteral("broken.json"));
    } catch (const TokenizerError& e) {
        return QString::fromStdString(e.what());
    }
    return QString();
}

QString loadError(const Json& json) {
    return loadError(toBytes(json));
}

class TokenizerErrorsTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void theTinyTokenizerLoads() { QCOMPARE(loadError(tinyTokenizer()), QString()); }

    void brokenFiles_data() {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("message");
        const auto add = [](const char* name, const Json& json, const char* message) {
            QTest::newRow(name) << toBytes(json) << QString::fromUtf8(message);
        };
        QTest::newRow("not JSON") << QByteArray("{\"model\": [1, 2")
                                  << QStringLiteral("broken.json: is not valid JSON");
        QTest::newRow("empty file") << QByteArray() << QStringLiteral("broken.json: is not valid JSON");
        add("top level list", Json::array({1, 2}), "broken.json: is not a tokenizer.json");

        Json json = tinyTokenizer();
        json.erase("model");
        add("no model", json, "broken.json: has no 'model'");

        json = tinyTokenizer();
        json["model"] = {{"type", "BPE"}, {"vocab", Json::object()}, {"merges", Json::array()}};
        add("BPE model", json, "broken.json: model type 'BPE' is not supported (only Unigram)");

        json = tinyTokenizer();
        json["model"].erase("type");
        add("model without type", json, "broken.json: model has no 'type'");

        json = tinyTokenizer();
        json["model"].erase("vocab");
        add("missing vocab", json, "broken.json: model has no 'vocab'");

        json = tinyTokenizer();
        json["model"]["vocab"] = Json::array();
        add("empty vocab", json, "broken.json: model has an empty vocabulary");

        json = tinyTokenizer();
        json["model"]["vocab"][2] = {"[CLS]", "high"};
        add("bad vocab entry", json, "broken.json: model.vocab[2] must be a [piece, score] pair");

        json = tinyTokenizer();
        json["model"]["unk_id"] = 40000;
        add("unk id out of range", json,
            "broken.json: model unk_id 40000 is out of range (vocab has 20 entries)");

        json = tinyTokenizer();
        json["model"]["unk_id"] = -3;
        add("negative unk id", json, "unk_id -3 is out of range");

        json = tinyTokenizer();
        json["model"]["byte_fallback"] = true;
        add("byte fallback", json, "broken.json: model option byte_fallback is not supported");

        json = tinyTokenizer();
        json["normalizer"] = {{"type", "BertNormalizer"}};
        add("unsupported normalizer", json, "broken.json: normalizer type 'BertNormalizer' is not supported");

        json = tinyTokenizer();
        json["normalizer"] = {{"type", "Sequence"},
                              {"normalizers", Json::array({{{"type", "Nmt"}}, {{"type", "Precompiled"}}})}};
        add("unsupported nested normalizer", json,
            "broken.json: normalizer.normalizers[1] type 'Precompiled' is not supported");

        json = tinyTokenizer();
        json["normalizer"] = {{"type", "Replace"}, {"pattern", {{"Regex", "(unclosed"}}}, {"content", ""}};
        add("bad regex", json, "is not a valid regular expression");

        json = tinyTokenizer();
        json["normalizer"] = {{"type", "Replace"}, {"pattern", {{"Glob", "*"}}}, {"content", ""}};
        add("bad pattern kind", json, "pattern kind 'Glob' is not supported");

        json = tinyTokenizer();
        json["pre_tokenizer"] = {{"type", "ByteLevel"}};
        add("unsupported pre-tokenizer", json,
            "broken.json: pre_tokenizer type 'ByteLevel' is not supported");

        json = tinyTokenizer();
        json["pre_tokenizer"] = {{"type", "Punctuation"}, {"behavior", "Sideways"}};
        add("bad behavior", json, "'behavior' must be one of");

        json = tinyTokenizer();
        json["pre_tokenizer"] = metaspace();
        json["pre_tokenizer"]["replacement"] = "ab";
        add("long replacement", json, "'replacement' must be exactly one character");

        json = tinyTokenizer();
        json["pre_tokenizer"] = metaspace();
        json["pre_tokenizer"]["prepend_scheme"] = "sometimes";
        add("bad prepend scheme", json, "'prepend_scheme' must be");

        json = tinyTokenizer();
        json["post_processor"] = {{"type", "BertProcessing"}};
        add("unsupported post-processor", json,
            "broken.json: post_processor type 'BertProcessing' is not supported");

        json = tinyTokenizer();
        json["post_processor"]["special_tokens"].erase("[SEP]");
        add("template without its special token", json,
            "special token '[SEP]' is missing from special_tokens");

        json = tinyTokenizer();
        json["post_processor"]["special_tokens"]["[CLS]"]["ids"] = {32000};
        add("template id outside the vocabulary", json, "id 32000 is not in the vocabulary");

        json = tinyTokenizer();
        json["decoder"] = {{"type", "ByteLevel"}};
        add("unsupported decoder", json, "broken.json: decoder type 'ByteLevel' is not supported");

        json = tinyTokenizer();
        json["truncation"] = {{"max_length", 128}};
        add("truncation", json, "broken.json: truncation is not supported");

        json = tinyTokenizer();
        json["padding"] = {{"strategy", "BatchLongest"}};
        add("padding", json, "broken.json: padding is not supported");

        json = tinyTokenizer();
        json["added_tokens"][0]["content"] = "";
        add("empty added token", json, "broken.json: added_tokens[0] has an empty 'content'");

        json = tinyTokenizer();
        json["added_tokens"][1]["lstrip"] = "yes";
        add("added token flag not a boolean", json, "added_tokens[1] 'lstrip' must be true or false");
    }

    void brokenFiles() {
        QFETCH(QByteArray, json);
        QFETCH(QString, message);
        const QString error = loadError(json);
        QVERIFY2(error.contains(message),
                 qPrintable(
                     QStringLiteral("expected an error containing \"%1\", got \"%2\"").arg(message, error)));
    }

    void missingFileNamesThePath() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("absent.json"));
        try {
            Tokenizer::fromFile(path);
            QFAIL("loading a missing file should throw");
        } catch (const TokenizerError& e) {
            const QString message = QString::fromStdString(e.what());
            QVERIFY2(message.startsWith(path) && message.contains(QStringLiteral("cannot read")),
                     qPrintable(message));
        }
    }
};

} // namespace

QTEST_GUILESS_MAIN(TokenizerErrorsTest)
#include "tst_tokenizer_errors.moc"
