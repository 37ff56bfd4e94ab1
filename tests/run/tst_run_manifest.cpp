// The run manifest: JSON round trip, canonical bytes, strict validation and shard verification.
#include "core/run/RunManifest.h"
#include "core/run/ShardVerifier.h"
#include "tests/common/TestFiles.h"

#include <QCryptographicHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>
#include <QUrl>

#include <algorithm>
#include <stdexcept>

using namespace sahaj::run;
using sahaj::test::errorOf;

namespace {

const QString kHashA = QString(64, 'a');
const QString kHashB = QString(64, 'b');
// SHA-256("abc"), the FIPS 180-2 test vector.
const QString kAbcSha256 = QStringLiteral("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");

// A valid manifest as an organiser might write it by hand: a built-in model name, some training keys.
QJsonObject handWritten() {
    return QJsonObject{
        {"format", "sahaj-run/1"},
        {"run_id", "bn-test-1"},
        {"model", "tiny"},
        {"tokenizer", QJsonObject{{"path", "/data/tokenizer.json"}, {"sha256", kHashA}}},
        {"training", QJsonObject{{"target_batch_size", 256},
                                 {"sequence_length", 128},
                                 {"documents", "paragraphs"},
                                 {"wire_dtype", "int8"},
                                 {"total_steps", 1000},
                                 {"warmup_steps", 100}}},
        {"data", QJsonArray{QJsonObject{{"urls", QJsonArray{"file:///data/shard-0.txt"}},
                                        {"sha256", kHashA},
                                        {"bytes", 1000}},
                            QJsonObject{{"urls", QJsonArray{"https://example.org/bn/shard-1.txt",
                                                            "http://127.0.0.1:8080/shard-1.txt"}},
                                        {"sha256", kHashB},
                                        {"bytes", 2000}}}},
        {"coordinators", QJsonArray{"127.0.0.1:4600", "[::1]:4601", "coord.example.org:4600"}},
    };
}

// The same manifest as run-init writes it: the model expanded, every training key present.
QJsonObject written() {
    return RunManifest::fromJson(handWritten()).toJson();
}

// `node` with the value at a dotted path ("training.lr", "data.0.url") replaced; Undefined removes it.
QJsonValue edited(const QJsonValue& node, QStringList path, const QJsonValue& value) {
    const QString key = path.takeFirst();
    if (node.isArray()) {
        QJsonArray array = node.toArray();
        const int index = key.toInt();
        array[index] = path.isEmpty() ? value : edited(array.at(index), path, value);
        return array;
    }
    QJsonObject object = node.toObject();
    if (path.isEmpty() && value.isUndefined())
        object.remove(key);
    else
        object[key] = path.isEmpty() ? value : edited(object.value(key), path, value);
    return object;
}

// JSON text with every object's keys in reverse order and generous whitespace: a file laid out unlike
// anything QJsonDocument writes.
QByteArray reversedText(const QJsonValue& value) {
    if (value.isObject()) {
        const QJsonObject object = value.toObject();
        QStringList keys = object.keys();
        std::reverse(keys.begin(), keys.end());
        QByteArray text = "{\n";
        for (const QString& key : keys)
            text += "  " + reversedText(key) + " :  " + reversedText(object.value(key)) +
                    (key == keys.back() ? "\n" : ",\n");
        return text + "}";
    }
    if (value.isArray()) {
        QByteArray text = "[ ";
        const QJsonArray array = value.toArray();
        for (qsizetype i = 0; i < array.size(); ++i)
            text += (i ? " , " : "") + reversedText(array.at(i));
        return text + " ]";
    }
    const QByteArray scalar = QJsonDocument(QJsonArray{value}).toJson(QJsonDocument::Compact);
    return scalar.mid(1, scalar.size() - 2);
}

QString messageOf(const QJsonObject& json) {
    return errorOf([&] { RunManifest::fromJson(json); });
}

} // namespace

class TestRunManifest : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir_;

private Q_SLOTS:
    void readsWhatItWrites() {
        const RunManifest manifest = RunManifest::fromJson(handWritten());
        QCOMPARE(manifest.runId, QString("bn-test-1"));
        QVERIFY(manifest.model == sahaj::model::AlbertConfig::named("tiny"));
        QCOMPARE(manifest.training.targetBatchSize, 256);
        QCOMPARE(manifest.training.documents, sahaj::text::PlainTextDocuments::BlankLineSeparated);
        QCOMPARE(manifest.training.wireDtype, WireDtype::Int8);
        QCOMPARE(manifest.training.maxEpochs, 1000); // omitted: the schedule's end
        QCOMPARE(manifest.data.size(), 2u);
        QCOMPARE(manifest.data[1].bytes, 2000);
        QCOMPARE(manifest.coordinators.size(), 3);

        const QString path = dir_.filePath("run.json");
        manifest.saveFile(path);
        const RunManifest loaded = RunManifest::loadFile(path);
        QVERIFY(loaded == manifest);
        QCOMPARE(loaded.canonicalBytes(), manifest.canonicalBytes());
        QCOMPARE(loaded.sha256Hex(), manifest.sha256Hex());
        QVERIFY(RunManifest::fromJson(manifest.toJson()) == manifest);
        // The model is written out in full, so that the file stands alone.
        QCOMPARE(manifest.toJson()["model"].toObject()["hidden_size"].toInt(), 32);
    }

    void weightsAreReadAndWrittenOnlyWhereGiven() {
        QJsonObject json = handWritten();
        QJsonArray data = json["data"].toArray();
        QJsonObject second = data[1].toObject();
        second["weight"] = 0.77;
        data[1] = second;
        json["data"] = data;
        const RunManifest manifest = RunManifest::fromJson(json);
        QCOMPARE(manifest.data[0].weight, 1.0);
        QCOMPARE(manifest.data[1].weight, 0.77);
        const QJsonArray out = manifest.toJson()["data"].toArray();
        // A manifest without weights keeps its bytes (and its signature): none is written for weight 1.
        QVERIFY(!out[0].toObject().contains("weight"));
        QCOMPARE(out[1].toObject()["weight"].toDouble(), 0.77);
    }

    void canonicalBytesIgnoreTheFilesLayout() {
        const RunManifest manifest = RunManifest::fromJson(handWritten());
        const QString path = sahaj::test::writeFile(dir_, "reversed.json", reversedText(written()));
        const RunManifest reordered = RunManifest::loadFile(path);
        QVERIFY(reordered == manifest);
        QCOMPARE(reordered.canonicalBytes(), manifest.canonicalBytes());
        QCOMPARE(reordered.sha256Hex(), manifest.sha256Hex());
        QCOMPARE(
            manifest.sha256Hex(),
            QString::fromLatin1(
                QCryptographicHash::hash(manifest.canonicalBytes(), QCryptographicHash::Sha256).toHex()));
        // Any change of substance changes the hash.
        RunManifest other = manifest;
        other.training.lamb.learningRate *= 2;
        QVERIFY(other.sha256Hex() != manifest.sha256Hex());
    }

    void canonicalBytesAreCompactAndSorted() {
        // The exact bytes a later signature covers: keys sorted at every level, no whitespace, integers in
        // decimal, reals in their shortest round-trip form (1e-06, 0.00176, 10000).
        const QByteArray expected =
            R"({"coordinators":["127.0.0.1:4600","[::1]:4601","coord.example.org:4600"],)"
            R"("data":[{"bytes":1000,"sha256":"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",)"
            R"("urls":["file:///data/shard-0.txt"]},{"bytes":2000,)"
            R"("sha256":"bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb",)"
            R"("urls":["https://example.org/bn/shard-1.txt","http://127.0.0.1:8080/shard-1.txt"]}],)"
            R"("format":"sahaj-run/1",)"
            R"("model":{"architectures":["AlbertForPreTraining"],"attention_probs_dropout_prob":0,)"
            R"("bos_token_id":2,"classifier_dropout_prob":0.1,"embedding_size":16,"eos_token_id":3,)"
            R"("hidden_act":"gelu_new","hidden_dropout_prob":0,"hidden_size":32,"initializer_range":0.02,)"
            R"("inner_group_num":1,"intermediate_size":64,"layer_norm_eps":1e-12,"max_position_embeddings":128,)"
            R"("model_type":"albert","num_attention_heads":2,"num_hidden_groups":1,"num_hidden_layers":2,)"
            R"("pad_token_id":0,"position_embedding_type":"absolute","type_vocab_size":2,"vocab_size":32000},)"
            R"("run_id":"bn-test-1","tokenizer":{"path":"/data/tokenizer.json",)"
            R"("sha256":"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"},)"
            R"("training":{"aggregation":"mean","betas":[0.9,0.999],"centered_clip_iterations":20,)"
            R"("centered_clip_tau_factor":1,"clamp_value":10000,"clip_norm":1,"debias":true,)"
            R"("documents":"paragraphs","eps":1e-06,"lr":0.00176,"max_epochs":1000,"mlm_probability":0.15,)"
            R"("parameter_averaging_every":5,"sequence_length":128,"target_batch_size":256,"total_steps":1000,)"
            R"("warmup_steps":100,"weight_decay":0.01,"wire_dtype":"int8"}})";
        QCOMPARE(RunManifest::fromJson(handWritten()).canonicalBytes(), expected);
    }

    // Delayed updates are asked for by a field that only a run which wants them carries: the runs made before
    // it keep their canonical bytes (and so their ids and signatures).
    void delayedUpdatesAreWrittenOnlyWhenAskedFor() {
        const RunManifest plain = RunManifest::fromJson(handWritten());
        QVERIFY(!plain.training.delayedUpdates);
        QVERIFY(!plain.canonicalBytes().contains("delayed_updates"));
        QJsonObject json = handWritten();
        QJsonObject training = json["training"].toObject();
        training["delayed_updates"] = true;
        json["training"] = training;
        const RunManifest delayed = RunManifest::fromJson(json);
        QVERIFY(delayed.training.delayedUpdates);
        QVERIFY(delayed.canonicalBytes().contains("\"delayed_updates\":true"));
        QVERIFY(RunManifest::fromJson(QJsonDocument::fromJson(delayed.canonicalBytes()).object()).training ==
                delayed.training);
        QVERIFY(!(delayed.training == plain.training));
    }

    void defaultsAreTheSahajBertRecipe() {
        QJsonObject json = handWritten();
        json.remove("training");
        json["model"] = "small"; // 512 positions: room for the recipe's sequence length
        const TrainingSettings t = RunManifest::fromJson(json).training;
        QCOMPARE(t.targetBatchSize, 4096);
        QCOMPARE(t.sequenceLength, 512);
        QCOMPARE(t.mlmProbability, 0.15);
        QCOMPARE(t.lamb.learningRate, 1.76e-3);
        QCOMPARE(t.lamb.beta1, 0.9);
        QCOMPARE(t.lamb.beta2, 0.999);
        QCOMPARE(t.lamb.eps, 1e-6);
        QCOMPARE(t.lamb.weightDecay, 0.01);
        QCOMPARE(t.lamb.clampValue, 10000.0);
        QVERIFY(t.lamb.debias);
        QCOMPARE(t.warmupSteps, 5000);
        QCOMPARE(t.totalSteps, 125000);
        QCOMPARE(t.maxEpochs, 125000);
        QCOMPARE(t.clipNorm, 1.0);
        QCOMPARE(t.parameterAveragingEvery, 5);
        QCOMPARE(t.wireDtype, WireDtype::Fp16);
        QCOMPARE(t.documents, sahaj::text::PlainTextDocuments::LinePerDocument);
    }

    void everyErrorNamesItsField_data() {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QJsonValue>("value");
        QTest::addColumn<QString>("expected");
        const QJsonValue remove(QJsonValue::Undefined);
        QTest::newRow("missing run_id") << "run_id" << remove << "run_id is missing";
        QTest::newRow("bad run_id characters") << "run_id" << QJsonValue("Bengali_Run")
                                               << "run_id must be 1 to 64 characters of a-z, 0-9 and '-'";
        QTest::newRow("run_id too long") << "run_id" << QJsonValue(QString(65, 'a')) << "run_id must be";
        QTest::newRow("other format")
            << "format" << QJsonValue("sahaj-run/2") << "format must be \"sahaj-run/1\"";
        QTest::newRow("unknown key") << "coordinator" << QJsonValue(QJsonArray{"127.0.0.1:1"})
                                     << "unknown key \"coordinator\"";
        QTest::newRow("unknown training key")
            << "training.lrr" << QJsonValue(0.01) << "unknown key \"training.lrr\"";
        QTest::newRow("unknown shard key")
            << "data.0.size" << QJsonValue(3) << "unknown key \"data[0].size\"";
        QTest::newRow("negative batch")
            << "training.target_batch_size" << QJsonValue(-4)
            << "training.target_batch_size must be an integer in [1, 2147483647], got -4";
        QTest::newRow("fractional batch") << "training.target_batch_size" << QJsonValue(4.5)
                                          << "training.target_batch_size must be an integer, got number 4.5";
        QTest::newRow("batch as text") << "training.target_batch_size" << QJsonValue("64")
                                       << "training.target_batch_size must be an integer, got string \"64\"";
        // The tiny model has 128 positions.
        QTest::newRow("sequence beyond the model's positions")
            << "training.sequence_length" << QJsonValue(129)
            << "training.sequence_length must be an integer in [5, 128], got 129";
        QTest::newRow("mlm probability") << "training.mlm_probability" << QJsonValue(1.5)
                                         << "training.mlm_probability must be a number in (0, 1), got 1.5";
        QTest::newRow("one beta") << "training.betas" << QJsonValue(QJsonArray{0.9})
                                  << "training.betas must be an array of two numbers";
        QTest::newRow("beta of one") << "training.betas" << QJsonValue(QJsonArray{0.9, 1})
                                     << "training.betas[1] must be a number in [0, 1), got 1";
        QTest::newRow("debias as text") << "training.debias" << QJsonValue("yes")
                                        << "training.debias must be true or false, got string \"yes\"";
        QTest::newRow("warmup past the schedule")
            << "training.warmup_steps" << QJsonValue(2000)
            << "training.warmup_steps must be an integer in [0, 1000], got 2000";
        QTest::newRow("epochs past the schedule") << "training.max_epochs" << QJsonValue(1001)
                                                  << "training.max_epochs must be an integer in [1, 1000]";
        QTest::newRow("document layout") << "training.documents" << QJsonValue("sentences")
                                         << "training.documents must be \"lines\" or \"paragraphs\"";
        QTest::newRow("bad wire dtype") << "training.wire_dtype" << QJsonValue("bf16")
                                        << "training.wire_dtype must be \"fp16\" or \"int8\", got \"bf16\"";
        QTest::newRow("unknown aggregation")
            << "training.aggregation" << QJsonValue("median")
            << "training.aggregation must be \"mean\" or \"centered_clip\", got \"median\"";
        QTest::newRow("clipping radius of 0")
            << "training.centered_clip_tau_factor" << QJsonValue(0)
            << "training.centered_clip_tau_factor must be a number in (0, 1000]";
        QTest::newRow("no clipping step")
            << "training.centered_clip_iterations" << QJsonValue(0)
            << "training.centered_clip_iterations must be an integer in [1, 1000]";
        QTest::newRow("bad sha256 hex") << "data.0.sha256" << QJsonValue(QString(63, 'a') + 'g')
                                        << "data[0].sha256 must be 64 lowercase hexadecimal digits";
        QTest::newRow("uppercase tokenizer sha256")
            << "tokenizer.sha256" << QJsonValue(QString(64, 'A')) << "tokenizer.sha256 must be 64 lowercase";
        QTest::newRow("bad URL scheme")
            << "data.1.urls.0" << QJsonValue("ftp://example.org/shard-1.txt")
            << "data[1].urls[0] must be file:///absolute/path or https://host/path, or http:// on a loopback";
        QTest::newRow("plain http on the Internet")
            << "data.1.urls.1" << QJsonValue("http://example.org/shard-1.txt") << "data[1].urls[1] must be";
        QTest::newRow("plain http to a public address")
            << "data.1.urls.1" << QJsonValue("http://8.8.8.8/shard-1.txt") << "data[1].urls[1] must be";
        QTest::newRow("user and password in a URL")
            << "data.1.urls.0" << QJsonValue("https://me:secret@example.org/shard-1.txt")
            << "data[1].urls[0] must be";
        QTest::newRow("relative file URL")
            << "data.0.urls.0" << QJsonValue("file:shard-0.txt") << "data[0].urls[0] must be";
        QTest::newRow("unencoded space")
            << "data.0.urls.0" << QJsonValue("file:///data/shard 0.txt") << "data[0].urls[0] must be";
        QTest::newRow("a URL instead of a list")
            << "data.0.urls" << QJsonValue("file:///data/shard-0.txt") << "data[0].urls must be an array";
        QTest::newRow("no place for a shard") << "data.0.urls" << QJsonValue(QJsonArray{})
                                              << "data[0].urls must list 1 to 8 places of the shard, got 0";
        QTest::newRow("nine places for a shard")
            << "data.0.urls"
            << QJsonValue(QJsonArray{"https://a.example/1", "https://a.example/2", "https://a.example/3",
                                     "https://a.example/4", "https://a.example/5", "https://a.example/6",
                                     "https://a.example/7", "https://a.example/8", "https://a.example/9"})
            << "data[0].urls must list 1 to 8 places";
        QTest::newRow("the old single url")
            << "data.0.url" << QJsonValue("file:///data/shard-0.txt") << "unknown key \"data[0].url\"";
        QTest::newRow("missing bytes") << "data.0.bytes" << remove << "data[0].bytes is missing";
        QTest::newRow("zero weight") << "data.0.weight" << QJsonValue(0)
                                     << "data[0].weight must be a number in (0, 1000]";
        QTest::newRow("huge weight") << "data.1.weight" << QJsonValue(1001)
                                     << "data[1].weight must be a number in (0, 1000]";
        QTest::newRow("text weight") << "data.0.weight" << QJsonValue("heavy") << "data[0].weight";
        QTest::newRow("negative bytes") << "data.0.bytes" << QJsonValue(-1) << "data[0].bytes must be";
        QTest::newRow("repeated place")
            << "data.1.urls.1" << QJsonValue("file:///data/shard-0.txt") << "data URL #2 repeats data URL #0";
        QTest::newRow("repeated bytes")
            << "data.1.sha256" << QJsonValue(kHashA) << "data[1].sha256 repeats data[0].sha256";
        QTest::newRow("no shards") << "data" << QJsonValue(QJsonArray{})
                                   << "data must list at least one shard";
        QTest::newRow("tokenizer bytes without url")
            << "tokenizer.bytes" << QJsonValue(1000) << "tokenizer.bytes goes with tokenizer.url";
        QTest::newRow("tokenizer path and url") << "tokenizer.url" << QJsonValue("https://example.org/t.json")
                                                << "tokenizer needs exactly one of \"path\" and \"url\"";
        QTest::newRow("relative tokenizer path")
            << "tokenizer.path" << QJsonValue("tokenizer.json") << "tokenizer.path must be an absolute path";
        QTest::newRow("empty coordinators")
            << "coordinators" << QJsonValue(QJsonArray{}) << "coordinators must list at least one HOST:PORT";
        QTest::newRow("coordinator without port")
            << "coordinators.0" << QJsonValue("localhost") << "coordinators[0] must be HOST:PORT";
        QTest::newRow("port out of range")
            << "coordinators.1" << QJsonValue("[::1]:70000") << "coordinators[1] must be HOST:PORT";
        QTest::newRow("coordinator as number")
            << "coordinators.2" << QJsonValue(4600) << "coordinators[2] must be a string, got number 4600";
        QTest::newRow("repeated coordinator")
            << "coordinators.2" << QJsonValue("127.0.0.1:4600") << "coordinators[2] repeats coordinators[0]";
        QTest::newRow("bad model config")
            << "model.hidden_size" << QJsonValue(33)
            << "model: invalid model config: hidden_size (33) must be a multiple of num_attention_heads (2)";
        QTest::newRow("model of another kind")
            << "model.model_type" << QJsonValue("bert") << "model: \"model_type\" must be \"albert\"";
        QTest::newRow("unknown model name")
            << "model" << QJsonValue("huge") << "model: unknown model config name 'huge'";
        QTest::newRow("model as number")
            << "model" << QJsonValue(3)
            << "model must be a built-in config name or a Hugging Face config object, got number 3";
    }

    void everyErrorNamesItsField() {
        QFETCH(QString, path);
        QFETCH(QJsonValue, value);
        QFETCH(QString, expected);
        const QJsonObject json = edited(written(), path.split('.'), value).toObject();
        const QString message = messageOf(json);
        QVERIFY2(message.contains(expected), qPrintable("got: " + message));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, RunManifest::fromJson(json));
    }

    void fileErrorsNameTheFile() {
        const QString missing = dir_.filePath("missing.json");
        QVERIFY(errorOf([&] {
                    RunManifest::loadFile(missing);
                }).contains("cannot open run manifest '" + missing));
        const QString broken = sahaj::test::writeFile(dir_, "broken.json", "{\"run_id\": ");
        QVERIFY(errorOf([&] { RunManifest::loadFile(broken); }).contains(broken + "' is not valid JSON"));
        const QString list = sahaj::test::writeFile(dir_, "list.json", "[]");
        QVERIFY(errorOf([&] { RunManifest::loadFile(list); }).contains("must be a JSON object"));
        const QString huge = sahaj::test::writeFile(dir_, "huge.json", QByteArray(4 * 1024 * 1024 + 1, ' '));
        QVERIFY(errorOf([&] { RunManifest::loadFile(huge); }).contains("larger than"));
        QJsonObject json = written();
        json["training"] = QJsonObject{{"lr", -1}, {"sequence_length", 128}};
        const QString invalid = sahaj::test::writeFile(dir_, "invalid.json", QJsonDocument(json).toJson());
        const QString message = errorOf([&] { RunManifest::loadFile(invalid); });
        QVERIFY2(
            message.contains("run manifest '" + invalid + "': training.lr must be a number above 0, got -1"),
            qPrintable(message));
    }

    void writingRefusesAnInvalidManifest() {
        RunManifest manifest = RunManifest::fromJson(handWritten());
        manifest.coordinators.clear();
        const QString path = dir_.filePath("never.json");
        QVERIFY(errorOf([&] { manifest.saveFile(path); }).contains("coordinators"));
        QVERIFY(!QFile::exists(path));
    }

    void localShardsAreVerified() {
        const QString path = sahaj::test::writeFile(dir_, "শার্ড 1.txt", "abc");
        const DataShard shard = ShardVerifier::describe(path);
        QCOMPARE(shard.sha256, kAbcSha256);
        QCOMPARE(shard.bytes, 3);
        QCOMPARE(shard.urls, QStringList{QUrl::fromLocalFile(path).toString(QUrl::FullyEncoded)});
        QVERIFY(shard.urls.front().contains("%20")); // percent-encoded, as the manifest requires
        QCOMPARE(ShardVerifier::localFile(shard), std::optional<QString>(path));
        QVERIFY(ShardVerifier::verify(shard));

        // One changed byte, same size: the hash catches it.
        sahaj::test::writeFile(dir_, "শার্ড 1.txt", "abd");
        QString message = errorOf([&] { ShardVerifier::verify(shard); });
        QVERIFY2(message.contains("SHA-256") && message.contains(kAbcSha256), qPrintable(message));
        // Another size: caught before hashing.
        sahaj::test::writeFile(dir_, "শার্ড 1.txt", "abcd");
        message = errorOf([&] { ShardVerifier::verify(shard); });
        QVERIFY2(message.contains("has 4 bytes, the run manifest says 3"), qPrintable(message));
        QVERIFY(QFile::remove(path));
        message = errorOf([&] { ShardVerifier::verify(shard); });
        QVERIFY2(message.contains("is missing") && message.contains(shard.name()), qPrintable(message));

        // Remote shards cannot be checked before downloading.
        QVERIFY(!ShardVerifier::verify(DataShard{{"https://example.org/shard.txt"}, kAbcSha256, 3}));
    }

    void hashingStreamsLargeFiles() {
        // Larger than the 1 MiB read chunk and not a multiple of it.
        QByteArray content(3 * 1024 * 1024 + 17, '\0');
        for (qsizetype i = 0; i < content.size(); ++i)
            content[i] = static_cast<char>(i * 7 % 251);
        const QString path = sahaj::test::writeFile(dir_, "large.bin", content);
        QCOMPARE(ShardVerifier::fileSha256Hex(path),
                 QString::fromLatin1(QCryptographicHash::hash(content, QCryptographicHash::Sha256).toHex()));
        QVERIFY(errorOf([&] { ShardVerifier::fileSha256Hex(dir_.path()); }).contains("is not a file"));
    }
};

QTEST_GUILESS_MAIN(TestRunManifest)
#include "tst_run_manifest.moc"
