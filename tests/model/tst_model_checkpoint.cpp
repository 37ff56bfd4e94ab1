// ModelCheckpoint: config.json + model.safetensors in Hugging Face layout, exact round trips, reduced
// precision, and clear errors when a file does not fit the model.
#include "core/model/ModelCheckpoint.h"

#include <nlohmann/json.hpp>
#include <torch/torch.h>

#include <QTemporaryDir>
#include <QtTest>

#include <fstream>

using namespace sahaj::model;

namespace {

PreTrainingOutput run(AlbertForPreTraining& model) {
    torch::manual_seed(99);
    const at::Tensor ids = torch::randint(5, 32000, {2, 12}, torch::kLong);
    return model->forward(ids, torch::ones({2, 12}, torch::kLong), torch::zeros({2, 12}, torch::kLong));
}

// Runs f, expects a std::runtime_error whose message contains every part.
template <typename F>
void expectError(F&& f, const QStringList& parts) {
    try {
        f();
    } catch (const std::exception& e) {
        for (const QString& part : parts)
            QVERIFY2(QString::fromStdString(e.what()).contains(part), e.what());
        return;
    }
    QFAIL("no error");
}

} // namespace

class TestModelCheckpoint : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    std::filesystem::path path(const QString& name) const { return dir_.filePath(name).toStdString(); }

    AlbertForPreTraining tinyModel(std::uint64_t seed) {
        torch::manual_seed(seed);
        AlbertForPreTraining model(AlbertConfig::named("tiny"));
        return model;
    }

private Q_SLOTS:
    void initTestCase() { torch::set_num_threads(1); } // see tst_albert_model

    void saveAndLoadAreExact() {
        AlbertForPreTraining model = tinyModel(1);
        model->eval();
        ModelCheckpoint::save(model, path("exact"));
        AlbertForPreTraining loaded = ModelCheckpoint::load(path("exact"));
        loaded->eval();
        QVERIFY(loaded->config() == model->config());
        const auto expected = model->stateDict();
        const auto actual = loaded->stateDict();
        QCOMPARE(actual.size(), expected.size());
        for (std::size_t i = 0; i < expected.size(); ++i) {
            QCOMPARE(actual[i].key(), expected[i].key());
            QVERIFY2(torch::equal(actual[i].value(), expected[i].value()), expected[i].key().c_str());
        }
        QVERIFY(
            loaded->predictions->decoderWeight().is_same(loaded->albert->embeddings->wordEmbeddings->weight));
        QVERIFY(torch::equal(run(loaded).mlmLogits, run(model).mlmLogits));
    }

    void filesFollowHuggingFaceLayout() {
        AlbertForPreTraining model = tinyModel(2);
        ModelCheckpoint::save(model, path("layout"));
        const auto content = SafeTensors::read(path("layout/model.safetensors"));
        // transformers refuses a model.safetensors without {"format": "pt"}.
        QCOMPARE(content.metadata.at("format"), std::string("pt"));
        // Every parameter once; the tied decoder aliases are left out, as save_pretrained does.
        QCOMPARE(content.tensors.size(), model->named_parameters().size());
        QVERIFY(!content.tensors.count("predictions.decoder.weight"));
        QVERIFY(!content.tensors.count("predictions.decoder.bias"));
        for (const auto& item : model->named_parameters()) {
            QVERIFY2(content.tensors.count(item.key()), item.key().c_str());
            QCOMPARE(content.tensors.at(item.key()).scalar_type(), torch::kFloat);
        }
        std::ifstream in(path("layout/config.json"));
        const auto config = nlohmann::json::parse(in);
        QCOMPARE(config.at("model_type").get<std::string>(), std::string("albert"));
        QCOMPARE(config.at("architectures").at(0).get<std::string>(), std::string("AlbertForPreTraining"));
        QCOMPARE(config.at("torch_dtype").get<std::string>(), std::string("float32"));
        QCOMPARE(config.at("hidden_size").get<int>(), 32);
    }

    void reducedPrecisionConvertsBackOnLoad_data() {
        QTest::addColumn<int>("precision");
        QTest::addColumn<QString>("dtype");
        QTest::addColumn<double>("tolerance");
        QTest::newRow("fp16") << int(StoragePrecision::Float16) << "float16" << 1e-3;
        QTest::newRow("bf16") << int(StoragePrecision::BFloat16) << "bfloat16" << 8e-3;
    }
    void reducedPrecisionConvertsBackOnLoad() {
        QFETCH(int, precision);
        QFETCH(QString, dtype);
        QFETCH(double, tolerance);
        AlbertForPreTraining model = tinyModel(3);
        const auto directory = path("half-" + dtype);
        ModelCheckpoint::save(model, directory, static_cast<StoragePrecision>(precision));
        const auto content = SafeTensors::read(directory / "model.safetensors");
        const auto stored = content.tensors.at("albert.pooler.weight").scalar_type();
        QCOMPARE(stored, precision == int(StoragePrecision::Float16) ? torch::kHalf : torch::kBFloat16);
        std::ifstream in(directory / "config.json");
        QCOMPARE(QString::fromStdString(nlohmann::json::parse(in).at("torch_dtype").get<std::string>()),
                 dtype);

        AlbertForPreTraining loaded = ModelCheckpoint::load(directory);
        for (const auto& item : loaded->named_parameters()) {
            QCOMPARE(item.value().scalar_type(), torch::kFloat);
            const at::Tensor original = model->named_parameters()[item.key()];
            QVERIFY2(torch::allclose(item.value(), original, tolerance, 1e-6), item.key().c_str());
        }
    }

    void mismatchesAreListed() {
        AlbertForPreTraining model = tinyModel(4);
        SafeTensors::Tensors tensors = ModelCheckpoint::tensorsOf(model, StoragePrecision::Float32);
        tensors.erase("albert.pooler.bias");
        tensors["albert.pooler.weight"] = torch::zeros({4, 4});
        tensors["cls.predictions.transform.dense.weight"] = torch::zeros({2});
        tensors["sop_classifier.classifier.bias"] = torch::zeros({2}, torch::kLong);
        AlbertForPreTraining target = tinyModel(5);
        const at::Tensor before = target->albert->embeddings->wordEmbeddings->weight.clone();
        expectError([&] { ModelCheckpoint::loadTensors(target, tensors, "'test tensors'"); },
                    {"model weights 'test tensors' do not match the model",
                     "missing 1 tensor(s): albert.pooler.bias",
                     "unexpected 1 tensor(s): cls.predictions.transform.dense.weight",
                     "wrong shape: albert.pooler.weight [4, 4] (model [32, 32])",
                     "not floating point: sop_classifier.classifier.bias (Long)"});
        // Nothing was copied before the mismatch was found.
        QVERIFY(torch::equal(target->albert->embeddings->wordEmbeddings->weight, before));
    }

    void aliasesAndOldBuffersAreAccepted() {
        // Files converted from older transformers checkpoints carry the decoder aliases and position_ids.
        AlbertForPreTraining model = tinyModel(6);
        SafeTensors::Tensors tensors;
        for (const auto& item : model->stateDict())
            tensors.emplace(item.key(), item.value().detach().clone());
        tensors["albert.embeddings.position_ids"] = torch::arange(128, torch::kLong).unsqueeze(0);
        SafeTensors::write(path("aliases.safetensors"), tensors, {{"format", "pt"}});
        AlbertForPreTraining target = tinyModel(7);
        ModelCheckpoint::loadWeights(target, path("aliases.safetensors"));
        QVERIFY(torch::equal(run(target).sopLogits, run(model).sopLogits));

        // An alias whose shape does not fit is still an error.
        tensors["predictions.decoder.bias"] = torch::zeros({5});
        expectError([&] { ModelCheckpoint::loadTensors(target, tensors, "'aliases'"); },
                    {"wrong shape: predictions.decoder.bias [5]"});
    }

    void loadIntoADifferentSizeFails() {
        AlbertForPreTraining model = tinyModel(8);
        ModelCheckpoint::save(model, path("tiny"));
        AlbertConfig other = AlbertConfig::named("tiny");
        other.hiddenSize = 64;
        AlbertForPreTraining bigger(other);
        expectError([&] { ModelCheckpoint::loadWeights(bigger, path("tiny/model.safetensors")); },
                    {"model.safetensors", "wrong shape"});
    }

    void brokenDirectoriesGiveClearErrors() {
        expectError([&] { ModelCheckpoint::load(path("nothing-here")); },
                    {"cannot open model config", "config.json"});
        AlbertForPreTraining model = tinyModel(9);
        ModelCheckpoint::save(model, path("broken"));
        std::ofstream(path("broken/model.safetensors"), std::ios::trunc) << "garbage";
        expectError([&] { ModelCheckpoint::load(path("broken")); }, {"model.safetensors", "truncated"});
        std::ofstream(path("broken/config.json"), std::ios::trunc)
            << R"({"hidden_size": 33, "num_attention_heads": 2})";
        expectError([&] { ModelCheckpoint::load(path("broken")); },
                    {"config.json", "multiple of num_attention_heads"});
    }
};

QTEST_APPLESS_MAIN(TestModelCheckpoint)
#include "tst_model_checkpoint.moc"
