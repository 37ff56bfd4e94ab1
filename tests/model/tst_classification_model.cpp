// AlbertForClassification and ClassificationCheckpoint: Hugging Face names for the token and sequence
// heads, a pre-trained body copied in, exact save/load round trips, and clear errors for files that do
// not fit.
#include "core/model/AlbertForClassification.h"
#include "core/model/AlbertForPreTraining.h"
#include "core/model/ClassificationCheckpoint.h"
#include "core/model/ModelCheckpoint.h"
#include "tests/common/TestFiles.h"

#include <nlohmann/json.hpp>
#include <torch/torch.h>

#include <QTemporaryDir>
#include <QtTest>

#include <fstream>
#include <set>

using namespace sahaj::model;
using sahaj::test::errorOf;

namespace {

std::set<std::string> namesOf(const torch::nn::Module& module) {
    std::set<std::string> names;
    for (const auto& item : module.named_parameters())
        names.insert(item.key());
    return names;
}

AlbertConfig tinyConfig() {
    AlbertConfig config = AlbertConfig::named("tiny");
    config.classifierDropoutProb = 0.0; // forward passes below compare exact values
    return config;
}

at::Tensor logitsOf(AlbertForClassification& model) {
    torch::manual_seed(7);
    const at::Tensor ids = torch::randint(5, 32000, {3, 9}, torch::kLong);
    at::Tensor mask = torch::ones({3, 9}, torch::kLong);
    mask[2].narrow(0, 5, 4).zero_();
    model->eval();
    return model->forward(ids, mask, torch::zeros({3, 9}, torch::kLong));
}

} // namespace

class TestClassificationModel : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    std::filesystem::path path(const QString& name) const { return dir_.filePath(name).toStdString(); }

private Q_SLOTS:
    void namesFollowHuggingFace() {
        AlbertForPreTraining pretraining(tinyConfig());
        std::set<std::string> body;
        for (const std::string& name : namesOf(*pretraining))
            if (name.rfind("albert.", 0) == 0)
                body.insert(name);
        QVERIFY(body.count("albert.pooler.weight") == 1);

        AlbertForClassification sequence(tinyConfig(), ClassificationHead::Sequence, 6);
        std::set<std::string> expected = body;
        expected.insert({"classifier.weight", "classifier.bias"});
        QVERIFY(namesOf(*sequence) == expected);

        // Token classification has no pooler, as AlbertModel(add_pooling_layer=False) in transformers.
        AlbertForClassification token(tinyConfig(), ClassificationHead::Token, 5);
        expected.erase("albert.pooler.weight");
        expected.erase("albert.pooler.bias");
        QVERIFY(namesOf(*token) == expected);
        QCOMPARE(token->classifier->weight.sizes().vec(), (std::vector<std::int64_t>{5, 32}));
        QCOMPARE(token->classifier->bias.sizes().vec(), (std::vector<std::int64_t>{5}));
        QVERIFY(errorOf([&] { token->albert->pool(torch::zeros({1, 2, 32})); }).contains("without a pooler"));
    }

    void outputShapes() {
        AlbertForClassification token(tinyConfig(), ClassificationHead::Token, 5);
        AlbertForClassification sequence(tinyConfig(), ClassificationHead::Sequence, 4);
        QCOMPARE(logitsOf(token).sizes().vec(), (std::vector<std::int64_t>{3, 9, 5}));
        QCOMPARE(logitsOf(sequence).sizes().vec(), (std::vector<std::int64_t>{3, 4}));
        QVERIFY(
            !errorOf([] { AlbertForClassification(tinyConfig(), ClassificationHead::Token, 0); }).isEmpty());
    }

    void pretrainedBodyIsCopiedAndTheHeadKept() {
        torch::manual_seed(1);
        AlbertForPreTraining pretraining(tinyConfig());
        ModelCheckpoint::save(pretraining, path("pretrained"));
        const SafeTensors::Tensors tensors = SafeTensors::read(path("pretrained/model.safetensors")).tensors;

        for (const ClassificationHead head : {ClassificationHead::Token, ClassificationHead::Sequence}) {
            torch::manual_seed(2);
            AlbertForClassification model(tinyConfig(), head, 3);
            const at::Tensor classifier = model->classifier->weight.clone();
            model->loadPretrainedBody(tensors, "pretrained");
            const auto source = pretraining->named_parameters();
            for (const auto& item : model->named_parameters()) {
                if (item.key().rfind("albert.", 0) == 0)
                    QVERIFY2(torch::equal(item.value(), source[item.key()]), item.key().c_str());
            }
            QVERIFY(torch::equal(model->classifier->weight, classifier));
        }

        // A body tensor missing from the file is named, and nothing changes.
        SafeTensors::Tensors damaged = tensors;
        damaged.erase("albert.embeddings.word_embeddings.weight");
        AlbertForClassification model(tinyConfig(), ClassificationHead::Sequence, 3);
        const at::Tensor before = model->albert->pooler->weight.clone();
        const QString message = errorOf([&] { model->loadPretrainedBody(damaged, "'damaged'"); });
        QVERIFY2(message.contains("missing 1 tensor(s): albert.embeddings.word_embeddings.weight"),
                 qPrintable(message));
        QVERIFY2(message.contains("'damaged'"), qPrintable(message));
        QVERIFY(torch::equal(model->albert->pooler->weight, before));
    }

    void saveAndLoadRoundTrip() {
        for (const ClassificationHead head : {ClassificationHead::Token, ClassificationHead::Sequence}) {
            torch::manual_seed(3);
            AlbertForClassification model(tinyConfig(), head, 3);
            const std::filesystem::path dir = path(head == ClassificationHead::Token ? "token" : "sequence");
            ClassificationCheckpoint::save(model, {"O", "B-LOC", "I-LOC"}, dir);

            std::ifstream in(dir / "config.json");
            const nlohmann::json config = nlohmann::json::parse(in);
            QCOMPARE(QString::fromStdString(config["architectures"][0].get<std::string>()),
                     QString(AlbertForClassificationImpl::architecture(head)));
            QCOMPARE(config["id2label"]["1"].get<std::string>(), std::string("B-LOC"));
            QCOMPARE(config["label2id"]["I-LOC"].get<int>(), 2);
            QCOMPARE(config["model_type"].get<std::string>(), std::string("albert"));
            const auto content = SafeTensors::read(dir / "model.safetensors");
            QCOMPARE(content.metadata.at("format"), std::string("pt"));
            QCOMPARE(content.tensors.count("albert.pooler.weight"),
                     std::size_t(head == ClassificationHead::Sequence));

            ClassificationCheckpoint::Loaded loaded = ClassificationCheckpoint::load(dir);
            QCOMPARE(loaded.labels, (std::vector<std::string>{"O", "B-LOC", "I-LOC"}));
            QVERIFY(loaded.model->head() == head);
            QVERIFY(torch::equal(logitsOf(loaded.model), logitsOf(model)));
        }
        QVERIFY(!errorOf([&] {
                     AlbertForClassification model(tinyConfig(), ClassificationHead::Token, 2);
                     ClassificationCheckpoint::save(model, {"O", "O"}, path("duplicate"));
                 }).isEmpty());
    }

    void badConfigsAreRefused() {
        torch::manual_seed(4);
        AlbertForClassification model(tinyConfig(), ClassificationHead::Sequence, 2);
        const std::filesystem::path dir = path("edited");
        ClassificationCheckpoint::save(model, {"neg", "pos"}, dir);
        std::ifstream in(dir / "config.json");
        const nlohmann::json original = nlohmann::json::parse(in);
        const auto withConfig = [&](const std::function<void(nlohmann::json&)>& edit) {
            nlohmann::json config = original;
            edit(config);
            std::ofstream(dir / "config.json") << config.dump();
            return errorOf([&] { ClassificationCheckpoint::load(dir); });
        };
        QVERIFY(withConfig([](auto& c) {
                    c["architectures"] = {"AlbertForPreTraining"};
                }).contains("architectures"));
        QVERIFY(withConfig([](auto& c) {
                    c["id2label"] = {{"0", "neg"}, {"2", "pos"}};
                }).contains("id2label"));
        QVERIFY(withConfig([](auto& c) { c["id2label"] = {{"0", "x"}, {"1", "x"}}; }).contains("twice"));
        QVERIFY(withConfig([](auto& c) { c.erase("id2label"); }).contains("id2label"));
        // Three classes in the config, two in the weights: the mismatch is named.
        const QString message = withConfig([](auto& c) {
            c["id2label"] = {{"0", "a"}, {"1", "b"}, {"2", "c"}};
        });
        QVERIFY2(message.contains("classifier.weight"), qPrintable(message));
        QVERIFY(withConfig([](auto&) {}).isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestClassificationModel)
#include "tst_classification_model.moc"
