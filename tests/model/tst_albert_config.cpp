// AlbertConfig: the built-in sizes, Hugging Face config.json compatibility and validation errors.
#include "core/model/AlbertConfig.h"

#include <nlohmann/json.hpp>

#include <QTemporaryDir>
#include <QtTest>

#include <fstream>

using sahaj::model::AlbertConfig;

namespace {

// transformers' config.json of albert-large-v2 (plus its usual extra keys), as published.
const char* kAlbertLargeV2 = R"({
  "architectures": ["AlbertForMaskedLM"],
  "attention_probs_dropout_prob": 0,
  "bos_token_id": 2,
  "classifier_dropout_prob": 0.1,
  "down_scale_factor": 1,
  "embedding_size": 128,
  "eos_token_id": 3,
  "gap_size": 0,
  "hidden_act": "gelu_new",
  "hidden_dropout_prob": 0,
  "hidden_size": 1024,
  "initializer_range": 0.02,
  "inner_group_num": 1,
  "intermediate_size": 4096,
  "layer_norm_eps": 1e-12,
  "max_position_embeddings": 512,
  "model_type": "albert",
  "net_structure_type": 0,
  "num_attention_heads": 16,
  "num_hidden_groups": 1,
  "num_hidden_layers": 24,
  "num_memory_blocks": 0,
  "pad_token_id": 0,
  "type_vocab_size": 2,
  "vocab_size": 30000
})";

// Runs f, expects std::invalid_argument whose message contains `part`.
template <typename F>
void expectInvalid(F&& f, const QString& part) {
    try {
        f();
    } catch (const std::invalid_argument& e) {
        QVERIFY2(QString::fromStdString(e.what()).contains(part), e.what());
        return;
    }
    QFAIL(qPrintable("no std::invalid_argument containing '" + part + "'"));
}

} // namespace

class TestAlbertConfig : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void sahajbertIsAlbertLargeWithSahajVocabulary() {
        const AlbertConfig c = AlbertConfig::named("sahajbert");
        QCOMPARE(c.numHiddenLayers, 24);
        QCOMPARE(c.numHiddenGroups, 1);
        QCOMPARE(c.innerGroupNum, 1);
        QCOMPARE(c.hiddenSize, 1024);
        QCOMPARE(c.numAttentionHeads, 16);
        QCOMPARE(c.intermediateSize, 4096);
        QCOMPARE(c.embeddingSize, 128);
        QCOMPARE(c.maxPositionEmbeddings, 512);
        QCOMPARE(c.typeVocabSize, 2);
        QCOMPARE(c.vocabSize, 32000);
        QCOMPARE(QString::fromStdString(c.hiddenAct), QString("gelu_new"));
        QCOMPARE(c.hiddenDropoutProb, 0.0);
        QCOMPARE(c.attentionProbsDropoutProb, 0.0);
        // Identical to albert-large-v2 apart from the vocabulary.
        AlbertConfig large = AlbertConfig::fromJson(nlohmann::json::parse(kAlbertLargeV2));
        large.vocabSize = 32000;
        QVERIFY(large == c);
    }

    void smallAndTinyKeepTheRealVocabulary() {
        const AlbertConfig small = AlbertConfig::named("small");
        QCOMPARE(small.hiddenSize, 256);
        QCOMPARE(small.numAttentionHeads, 4);
        QCOMPARE(small.intermediateSize, 1024);
        QCOMPARE(small.numHiddenLayers, 12);
        QCOMPARE(small.vocabSize, 32000);
        const AlbertConfig tiny = AlbertConfig::named("tiny");
        QCOMPARE(tiny.hiddenSize, 32);
        QCOMPARE(tiny.numAttentionHeads, 2);
        QCOMPARE(tiny.intermediateSize, 64);
        QCOMPARE(tiny.numHiddenLayers, 2);
        QCOMPARE(tiny.embeddingSize, 16);
        QCOMPARE(tiny.maxPositionEmbeddings, 128);
        QCOMPARE(tiny.vocabSize, 32000);
    }

    void unknownNameListsTheKnownOnes() {
        expectInvalid([] { AlbertConfig::named("huge"); },
                      "unknown model config name 'huge' (known: sahajbert, small, tiny)");
    }

    void parameterCountOfSahajbert() {
        const auto count = AlbertConfig::named("sahajbert").parameterCount();
        QVERIFY2(count >= 18'000'000 && count <= 18'300'000, qPrintable(QString::number(count)));
    }

    void jsonRoundTrip_data() {
        QTest::addColumn<QString>("name");
        for (const auto& name : AlbertConfig::knownNames())
            QTest::newRow(name.c_str()) << QString::fromStdString(name);
    }
    void jsonRoundTrip() {
        QFETCH(QString, name);
        AlbertConfig c = AlbertConfig::named(name.toStdString());
        c.padTokenId.reset(); // null ids survive too
        c.classifierDropoutProb = 0.25;
        const nlohmann::json json = c.toJson();
        QCOMPARE(QString::fromStdString(json.at("model_type").get<std::string>()), QString("albert"));
        QCOMPARE(QString::fromStdString(json.at("architectures").at(0).get<std::string>()),
                 QString("AlbertForPreTraining"));
        QVERIFY(json.at("pad_token_id").is_null());
        QVERIFY(AlbertConfig::fromJson(json) == c);
    }

    void fileRoundTrip() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::filesystem::path path = dir.filePath("config.json").toStdString();
        const AlbertConfig c = AlbertConfig::named("small");
        c.saveFile(path);
        QVERIFY(AlbertConfig::loadFile(path) == c);
        // Written atomically: nothing but the file itself is left in the directory.
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList{"config.json"});
    }

    void missingKeysTakeHuggingFaceDefaultsAndUnknownKeysAreIgnored() {
        const AlbertConfig c = AlbertConfig::fromJson(nlohmann::json::parse(R"({"hidden_size": 64,
            "num_attention_heads": 4, "intermediate_size": 128, "something_new": [1, 2, 3]})"));
        QCOMPARE(c.hiddenSize, 64);
        QCOMPARE(c.vocabSize, 30000); // transformers' default
        QCOMPARE(c.numHiddenLayers, 12);
        QCOMPARE(c.embeddingSize, 128);
    }

    void wrongTypesNameTheKey_data() {
        QTest::addColumn<QString>("json");
        QTest::addColumn<QString>("message");
        QTest::newRow("string size") << R"({"hidden_size": "1024"})"
                                     << "\"hidden_size\" must be an integer";
        QTest::newRow("real size") << R"({"vocab_size": 32000.5})"
                                   << "\"vocab_size\" must be an integer";
        QTest::newRow("string dropout") << R"({"hidden_dropout_prob": "0"})"
                                        << "\"hidden_dropout_prob\" must be a number";
        QTest::newRow("numeric act") << R"({"hidden_act": 3})"
                                     << "\"hidden_act\" must be a string";
        QTest::newRow("bert") << R"({"model_type": "bert"})"
                              << "\"model_type\" must be \"albert\"";
        QTest::newRow("relative positions") << R"({"position_embedding_type": "relative_key"})"
                                            << "only \"absolute\"";
        QTest::newRow("not an object") << R"([1, 2])"
                                       << "must be a JSON object";
        QTest::newRow("string pad id") << R"({"pad_token_id": "0"})"
                                       << "\"pad_token_id\" must be an integer or null";
    }
    void wrongTypesNameTheKey() {
        QFETCH(QString, json);
        QFETCH(QString, message);
        expectInvalid([&] { AlbertConfig::fromJson(nlohmann::json::parse(json.toStdString())); }, message);
    }

    void validationReportsEveryProblem_data() {
        QTest::addColumn<QString>("json");
        QTest::addColumn<QString>("message");
        const QString base = R"("hidden_size": 64, "num_attention_heads": 4, "intermediate_size": 128)";
        QTest::newRow("heads") << R"({"hidden_size": 30, "num_attention_heads": 4})"
                               << "hidden_size (30) must be a multiple of num_attention_heads (4)";
        QTest::newRow("zero layers") << "{" + base + R"(, "num_hidden_layers": 0})"
                                     << "num_hidden_layers must be in [1, ";
        QTest::newRow("negative vocab") << "{" + base + R"(, "vocab_size": -5})"
                                        << "vocab_size must be in [1, ";
        QTest::newRow("activation")
            << "{" + base + R"(, "hidden_act": "swish"})"
            << "hidden_act 'swish' is not supported (supported: gelu_new, gelu, relu)";
        QTest::newRow("dropout") << "{" + base + R"(, "hidden_dropout_prob": 1.5})"
                                 << "hidden_dropout_prob must be in [0, 1)";
        QTest::newRow("groups") << "{" + base + R"(, "num_hidden_layers": 2, "num_hidden_groups": 3})"
                                << "num_hidden_groups (3) must not exceed num_hidden_layers (2)";
        QTest::newRow("pad id") << "{" + base + R"(, "vocab_size": 100, "pad_token_id": 100})"
                                << "pad_token_id 100 is outside the vocabulary [0, 100)";
        QTest::newRow("eps") << "{" + base + R"(, "layer_norm_eps": 0})"
                             << "layer_norm_eps must be in (0, 1)";
        QTest::newRow("absurd")
            << R"({"hidden_size": 16000000, "num_attention_heads": 1, "intermediate_size": 16000000})"
            << "more than the supported";
    }
    void validationReportsEveryProblem() {
        QFETCH(QString, json);
        QFETCH(QString, message);
        expectInvalid([&] { AlbertConfig::fromJson(nlohmann::json::parse(json.toStdString())); }, message);
    }

    void twoProblemsAreBothReported() {
        AlbertConfig c = AlbertConfig::named("tiny");
        c.hiddenSize = 33;
        c.hiddenAct = "tanh";
        expectInvalid([&] { c.validate(); }, "multiple of num_attention_heads");
        expectInvalid([&] { c.validate(); }, "hidden_act 'tanh'");
    }

    void loadFileErrorsNameTheFile() {
        QTemporaryDir dir;
        const std::filesystem::path missing = dir.filePath("nope.json").toStdString();
        try {
            AlbertConfig::loadFile(missing);
            QFAIL("no error for a missing file");
        } catch (const std::runtime_error& e) {
            QVERIFY2(QString(e.what()).contains("cannot open model config") &&
                         QString(e.what()).contains("nope.json"),
                     e.what());
        }
        const std::filesystem::path broken = dir.filePath("broken.json").toStdString();
        std::ofstream(broken) << "{\"hidden_size\": 1024,";
        try {
            AlbertConfig::loadFile(broken);
            QFAIL("no error for broken JSON");
        } catch (const std::runtime_error& e) {
            QVERIFY2(QString(e.what()).contains("broken.json") &&
                         QString(e.what()).contains("not valid JSON"),
                     e.what());
        }
        const std::filesystem::path invalid = dir.filePath("invalid.json").toStdString();
        std::ofstream(invalid) << R"({"hidden_size": 30, "num_attention_heads": 4})";
        expectInvalid([&] { AlbertConfig::loadFile(invalid); }, "invalid.json");
    }
};

QTEST_APPLESS_MAIN(TestAlbertConfig)
#include "tst_albert_config.moc"
