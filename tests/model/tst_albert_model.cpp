// AlbertForPreTraining: Hugging Face names and shapes, parameter count, forward shapes, the attention
// mask, tied weights, initialisation, the loss and input validation.
#include "core/model/AlbertForPreTraining.h"
#include "core/model/AutocastGuard.h"
#include "core/model/ComputeThreads.h"
#include "core/model/PreTrainingLoss.h"

#include <torch/torch.h>

#include <QtTest>

#include <dlfcn.h>

#include <map>
#include <set>

using namespace sahaj::model;

namespace {

using Shape = std::vector<std::int64_t>;

// Hugging Face AlbertForPreTraining's state_dict() for the sahajbert sizes, in its order (transformers
// 4.x, where embeddings.position_ids is a non-persistent buffer and so absent).
std::vector<std::pair<std::string, Shape>> expectedSahajbertStateDict() {
    const std::string layer = "albert.encoder.albert_layer_groups.0.albert_layers.0.";
    return {
        {"albert.embeddings.word_embeddings.weight", {32000, 128}},
        {"albert.embeddings.position_embeddings.weight", {512, 128}},
        {"albert.embeddings.token_type_embeddings.weight", {2, 128}},
        {"albert.embeddings.LayerNorm.weight", {128}},
        {"albert.embeddings.LayerNorm.bias", {128}},
        {"albert.encoder.embedding_hidden_mapping_in.weight", {1024, 128}},
        {"albert.encoder.embedding_hidden_mapping_in.bias", {1024}},
        {layer + "full_layer_layer_norm.weight", {1024}},
        {layer + "full_layer_layer_norm.bias", {1024}},
        {layer + "attention.query.weight", {1024, 1024}},
        {layer + "attention.query.bias", {1024}},
        {layer + "attention.key.weight", {1024, 1024}},
        {layer + "attention.key.bias", {1024}},
        {layer + "attention.value.weight", {1024, 1024}},
        {layer + "attention.value.bias", {1024}},
        {layer + "attention.dense.weight", {1024, 1024}},
        {layer + "attention.dense.bias", {1024}},
        {layer + "attention.LayerNorm.weight", {1024}},
        {layer + "attention.LayerNorm.bias", {1024}},
        {layer + "ffn.weight", {4096, 1024}},
        {layer + "ffn.bias", {4096}},
        {layer + "ffn_output.weight", {1024, 4096}},
        {layer + "ffn_output.bias", {1024}},
        {"albert.pooler.weight", {1024, 1024}},
        {"albert.pooler.bias", {1024}},
        {"predictions.bias", {32000}},
        {"predictions.LayerNorm.weight", {128}},
        {"predictions.LayerNorm.bias", {128}},
        {"predictions.dense.weight", {128, 1024}},
        {"predictions.dense.bias", {128}},
        {"predictions.decoder.weight", {32000, 128}},
        {"predictions.decoder.bias", {32000}},
        {"sop_classifier.classifier.weight", {2, 1024}},
        {"sop_classifier.classifier.bias", {2}},
    };
}

struct Batch {
    at::Tensor inputIds, attentionMask, tokenTypeIds, mlmLabels, sopLabels;
};

// A random batch without padding; every third position carries an MLM label.
Batch randomBatch(std::int64_t batch, std::int64_t length, std::int64_t vocab) {
    Batch b;
    b.inputIds = torch::randint(5, vocab, {batch, length}, torch::kLong);
    b.attentionMask = torch::ones({batch, length}, torch::kLong);
    b.tokenTypeIds = torch::zeros({batch, length}, torch::kLong);
    b.tokenTypeIds.slice(1, length / 2).fill_(1);
    b.mlmLabels = torch::full({batch, length}, -100, torch::kLong);
    b.mlmLabels.slice(1, 1, length, 3)
        .copy_(torch::randint(5, vocab, {batch, (length - 1 + 2) / 3}, torch::kLong));
    b.sopLabels = torch::randint(0, 2, {batch}, torch::kLong);
    return b;
}

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

class TestAlbertModel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // A volunteer's thread limit holds for the BLAS library's pool too, where that library has one
    // (OpenBLAS, Debian's usual choice, spins its idle threads: docs/compute-cores.md).
    void theThreadLimitHoldsForBlasToo() {
        using GetThreads = int (*)();
        auto* blasThreads = reinterpret_cast<GetThreads>(dlsym(RTLD_DEFAULT, "openblas_get_num_threads"));
        const int atenBefore = at::get_num_threads();
        sahaj::model::setComputeThreads(1);
        QCOMPARE(at::get_num_threads(), 1);
        if (blasThreads)
            QCOMPARE(blasThreads(), 1);
        sahaj::model::setComputeThreads(atenBefore);
        if (blasThreads)
            QCOMPARE(blasThreads(), atenBefore);
    }

    // One thread: CI machines have two cores shared by several jobs, where OpenMP workers spin-waiting on
    // each other make small models many times slower.
    void initTestCase() { torch::set_num_threads(1); }

    void namesAndShapesAreHuggingFaces() {
        torch::manual_seed(0);
        AlbertForPreTraining model(AlbertConfig::named("sahajbert"));
        const auto expected = expectedSahajbertStateDict();
        const auto state = model->stateDict();
        QCOMPARE(state.size(), expected.size());
        for (std::size_t i = 0; i < expected.size(); ++i) {
            QCOMPARE(QString::fromStdString(state[i].key()), QString::fromStdString(expected[i].first));
            QVERIFY2(state[i].value().sizes().vec() == expected[i].second, expected[i].first.c_str());
        }
        // named_parameters(): the same list without the two tied aliases, so that optimisers see each
        // tensor once.
        const auto parameters = model->named_parameters();
        QCOMPARE(parameters.size(), expected.size() - 2);
        std::size_t j = 0;
        for (const auto& [name, shape] : expected) {
            if (name == "predictions.decoder.weight" || name == "predictions.decoder.bias")
                continue;
            QCOMPARE(QString::fromStdString(parameters[j].key()), QString::fromStdString(name));
            QVERIFY(parameters[j].value().sizes().vec() == shape);
            ++j;
        }
        QVERIFY(model->named_buffers().is_empty());
    }

    void parameterCountOfSahajbert() {
        torch::manual_seed(0);
        AlbertForPreTraining model(AlbertConfig::named("sahajbert"));
        const std::int64_t count = model->parameterCount();
        QVERIFY2(count >= 18'000'000 && count <= 18'300'000, qPrintable(QString::number(count)));
        // Summing every state-dict entry counts the tied tensors twice.
        std::int64_t withAliases = 0;
        for (const auto& item : model->stateDict())
            withAliases += item.value().numel();
        QCOMPARE(withAliases - count, std::int64_t{32000 * 128 + 32000});
    }

    void parameterCountMatchesTheConfigFormula_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("groups");
        QTest::addColumn<int>("inner");
        QTest::newRow("tiny") << "tiny" << 1 << 1;
        QTest::newRow("small") << "small" << 1 << 1;
        QTest::newRow("tiny 2 groups x 3 inner") << "tiny" << 2 << 3;
    }
    void parameterCountMatchesTheConfigFormula() {
        QFETCH(QString, name);
        QFETCH(int, groups);
        QFETCH(int, inner);
        AlbertConfig config = AlbertConfig::named(name.toStdString());
        config.numHiddenGroups = groups;
        config.innerGroupNum = inner;
        AlbertForPreTraining model(config);
        QCOMPARE(model->parameterCount(), config.parameterCount());
        // Names of a grouped model: one layer set per (group, inner) pair.
        const auto parameters = model->named_parameters();
        for (int g = 0; g < groups; ++g)
            for (int k = 0; k < inner; ++k)
                QVERIFY(parameters.contains("albert.encoder.albert_layer_groups." + std::to_string(g) +
                                            ".albert_layers." + std::to_string(k) + ".ffn.weight"));
    }

    void forwardShapes() {
        torch::manual_seed(1);
        const AlbertConfig config = AlbertConfig::named("tiny");
        AlbertForPreTraining model(config);
        model->eval(); // the sentence-order head's dropout would make the two passes differ
        const Batch b = randomBatch(3, 20, config.vocabSize);
        const PreTrainingOutput out = model->forward(b.inputIds, b.attentionMask, b.tokenTypeIds);
        QVERIFY(out.mlmLogits.sizes().vec() == (Shape{3, 20, 32000}));
        QVERIFY(out.sopLogits.sizes().vec() == (Shape{3, 2}));
        QVERIFY(torch::isfinite(out.mlmLogits).all().item<bool>());

        const MaskedPreTrainingOutput masked =
            model->forwardMasked(b.inputIds, b.attentionMask, b.tokenTypeIds, b.mlmLabels);
        const auto labelled = b.mlmLabels.ne(-100).sum().item<std::int64_t>();
        QVERIFY(masked.mlmLogits.sizes().vec() == (Shape{labelled, 32000}));
        QVERIFY(masked.mlmLabels.sizes().vec() == (Shape{labelled}));
        // The masked logits are the full logits' rows at the labelled positions, in row-major order.
        const at::Tensor where = b.mlmLabels.ne(-100);
        QVERIFY(torch::allclose(masked.mlmLogits, out.mlmLogits.index({where}), 1e-5, 1e-5));
        QVERIFY(torch::equal(masked.mlmLabels, b.mlmLabels.index({where})));
        QVERIFY(torch::allclose(masked.sopLogits, out.sopLogits, 1e-6, 1e-6));
    }

    void paddingDoesNotChangeOtherPositions() {
        torch::manual_seed(2);
        const AlbertConfig config = AlbertConfig::named("tiny");
        AlbertForPreTraining model(config);
        model->eval();
        torch::NoGradGuard noGrad;
        const std::int64_t real = 10, padded = 16;
        const at::Tensor ids = torch::randint(5, config.vocabSize, {1, real}, torch::kLong);
        const at::Tensor types = torch::zeros({1, real}, torch::kLong);
        const PreTrainingOutput alone = model->forward(ids, torch::ones({1, real}, torch::kLong), types);

        // The same sequence padded with arbitrary ids (not even the pad id) and mask 0.
        at::Tensor paddedIds =
            torch::cat({ids, torch::randint(5, config.vocabSize, {1, padded - real}, torch::kLong)}, 1);
        at::Tensor mask = torch::cat(
            {torch::ones({1, real}, torch::kLong), torch::zeros({1, padded - real}, torch::kLong)}, 1);
        const at::Tensor paddedTypes = torch::zeros({1, padded}, torch::kLong);
        const PreTrainingOutput withPadding = model->forward(paddedIds, mask, paddedTypes);
        QVERIFY(torch::allclose(withPadding.mlmLogits.slice(1, 0, real), alone.mlmLogits, 1e-4, 1e-5));
        QVERIFY(torch::allclose(withPadding.sopLogits, alone.sopLogits, 1e-4, 1e-5));

        // Without the mask the padding is attended to and the outputs move: the check above can fail.
        const PreTrainingOutput unmasked =
            model->forward(paddedIds, torch::ones({1, padded}, torch::kLong), paddedTypes);
        QVERIFY(!torch::allclose(unmasked.mlmLogits.slice(1, 0, real), alone.mlmLogits, 1e-4, 1e-5));

        // Batched with another sequence of full length, row 0 still gives the same result.
        const at::Tensor other = torch::randint(5, config.vocabSize, {1, padded}, torch::kLong);
        const PreTrainingOutput batched =
            model->forward(torch::cat({paddedIds, other}), torch::cat({mask, torch::ones_like(mask)}),
                           torch::zeros({2, padded}, torch::kLong));
        QVERIFY(torch::allclose(batched.mlmLogits[0].slice(0, 0, real), alone.mlmLogits[0], 1e-4, 1e-5));
    }

    void tiedWeightsShareStorage() {
        torch::manual_seed(3);
        AlbertForPreTraining model(AlbertConfig::named("tiny"));
        const at::Tensor& embedding = model->albert->embeddings->wordEmbeddings->weight;
        QVERIFY(model->predictions->decoderWeight().is_same(embedding));
        QVERIFY(model->predictions->decoderBias().is_same(model->predictions->bias));
        const auto state = model->stateDict();
        QCOMPARE(state["predictions.decoder.weight"].data_ptr(), embedding.data_ptr());
        QCOMPARE(state["predictions.decoder.bias"].data_ptr(), model->predictions->bias.data_ptr());

        // The decoder's gradient lands in the embedding: a token that only appears as a label gets one.
        const std::int64_t labelOnly = 31999;
        at::Tensor ids = torch::full({1, 8}, 7, torch::kLong);
        at::Tensor labels = torch::full({1, 8}, -100, torch::kLong);
        labels[0][3] = labelOnly;
        const auto loss =
            PreTrainingLoss::compute(model->forwardMasked(ids, torch::ones({1, 8}, torch::kLong),
                                                          torch::zeros({1, 8}, torch::kLong), labels),
                                     torch::zeros({1}, torch::kLong));
        loss.total.backward();
        QVERIFY(embedding.grad()[labelOnly].abs().sum().item<double>() > 0.0);
        QVERIFY(model->predictions->bias.grad()[labelOnly].item<double>() != 0.0);

        // An in-place update and a dtype change keep the tie.
        {
            torch::NoGradGuard noGrad;
            embedding.add_(1.0);
        }
        QVERIFY(torch::equal(model->predictions->decoderWeight(), embedding));
        model->to(torch::kDouble);
        QCOMPARE(model->predictions->decoderWeight().scalar_type(), torch::kDouble);
        QVERIFY(
            model->predictions->decoderWeight().is_same(model->albert->embeddings->wordEmbeddings->weight));
        const auto out =
            model->forward(ids, torch::ones({1, 8}, torch::kLong), torch::zeros({1, 8}, torch::kLong));
        QCOMPARE(out.mlmLogits.scalar_type(), torch::kDouble);
    }

    void initialisationFollowsHuggingFace() {
        torch::manual_seed(4);
        const AlbertConfig config = AlbertConfig::named("small");
        AlbertForPreTraining a(config);
        torch::manual_seed(4);
        AlbertForPreTraining b(config);
        torch::manual_seed(5);
        AlbertForPreTraining c(config);
        const auto pa = a->named_parameters(), pb = b->named_parameters(), pc = c->named_parameters();
        bool anyDifferent = false;
        for (std::size_t i = 0; i < pa.size(); ++i) {
            QVERIFY2(torch::equal(pa[i].value(), pb[i].value()), pa[i].key().c_str());
            anyDifferent = anyDifferent || !torch::equal(pa[i].value(), pc[i].value());
        }
        QVERIFY(anyDifferent);

        for (const auto& item : pa) {
            const std::string& name = item.key();
            const at::Tensor& t = item.value();
            const bool isNorm =
                name.find("LayerNorm") != std::string::npos || name.find("layer_norm") != std::string::npos;
            if (name.ends_with(".bias") || name == "predictions.bias")
                QVERIFY2(t.eq(0).all().item<bool>(), name.c_str());
            else if (isNorm)
                QVERIFY2(t.eq(1).all().item<bool>(), name.c_str());
            else if (t.numel() > 10000) {
                const double std = t.std().item<double>();
                QVERIFY2(std > 0.018 && std < 0.022,
                         qPrintable(QString::fromStdString(name) + " std " + QString::number(std)));
            }
        }
        QVERIFY(a->albert->embeddings->wordEmbeddings->weight[0].eq(0).all().item<bool>()); // padding row
    }

    void lossMatchesTheFullCrossEntropy() {
        torch::manual_seed(6);
        const AlbertConfig config = AlbertConfig::named("tiny");
        AlbertForPreTraining model(config);
        model->eval();
        const Batch b = randomBatch(4, 12, config.vocabSize);
        const PreTrainingOutput full = model->forward(b.inputIds, b.attentionMask, b.tokenTypeIds);
        const PreTrainingLossValues fromFull = PreTrainingLoss::compute(full, b.mlmLabels, b.sopLabels);
        const PreTrainingLossValues fromMasked = PreTrainingLoss::compute(
            model->forwardMasked(b.inputIds, b.attentionMask, b.tokenTypeIds, b.mlmLabels), b.sopLabels);

        // Hugging Face: CrossEntropyLoss over all positions with ignore_index -100.
        namespace F = torch::nn::functional;
        const at::Tensor mlm =
            F::cross_entropy(full.mlmLogits.reshape({-1, config.vocabSize}), b.mlmLabels.reshape({-1}),
                             F::CrossEntropyFuncOptions().ignore_index(-100));
        const at::Tensor sop = F::cross_entropy(full.sopLogits, b.sopLabels);
        QVERIFY(torch::allclose(fromFull.mlmLoss, mlm, 1e-5, 1e-6));
        QVERIFY(torch::allclose(fromMasked.mlmLoss, mlm, 1e-5, 1e-5));
        QVERIFY(torch::allclose(fromMasked.sopLoss, sop, 1e-5, 1e-6));
        QVERIFY(torch::allclose(fromMasked.total, mlm + sop, 1e-5, 1e-5));
        // A random model's MLM loss is near ln(32000).
        QVERIFY(std::abs(fromMasked.mlmLoss.item<double>() - std::log(32000.0)) < 1.0);

        const at::Tensor where = b.mlmLabels.ne(-100);
        QCOMPARE(fromMasked.mlmCount, where.sum().item<std::int64_t>());
        QCOMPARE(fromMasked.mlmCorrect, full.mlmLogits.argmax(-1)
                                            .index({where})
                                            .eq(b.mlmLabels.index({where}))
                                            .sum()
                                            .item<std::int64_t>());
        QCOMPARE(fromMasked.sopCount, std::int64_t{4});
        QCOMPARE(fromMasked.sopCorrect, full.sopLogits.argmax(-1).eq(b.sopLabels).sum().item<std::int64_t>());
    }

    void noLabelledPositionGivesZeroMlmLoss() {
        torch::manual_seed(7);
        AlbertForPreTraining model(AlbertConfig::named("tiny"));
        const Batch b = randomBatch(2, 8, 32000);
        const auto values =
            PreTrainingLoss::compute(model->forwardMasked(b.inputIds, b.attentionMask, b.tokenTypeIds,
                                                          torch::full({2, 8}, -100, torch::kLong)),
                                     b.sopLabels);
        QCOMPARE(values.mlmCount, std::int64_t{0});
        QCOMPARE(values.mlmLoss.item<double>(), 0.0);
        values.total.backward(); // still differentiable
        QVERIFY(model->sopClassifier->classifier->weight.grad().defined());
    }

    void trainingReducesTheLoss() {
        // A tiny model memorises one batch: forward, loss and backward fit together.
        torch::manual_seed(8);
        AlbertForPreTraining model(AlbertConfig::named("tiny"));
        const Batch b = randomBatch(4, 16, 32000);
        torch::optim::Adam optimizer(model->parameters(), torch::optim::AdamOptions(1e-2));
        double first = 0.0, last = 0.0;
        for (int step = 0; step < 40; ++step) {
            optimizer.zero_grad();
            const auto values = PreTrainingLoss::compute(
                model->forwardMasked(b.inputIds, b.attentionMask, b.tokenTypeIds, b.mlmLabels), b.sopLabels);
            values.total.backward();
            optimizer.step();
            (step == 0 ? first : last) = values.total.item<double>();
        }
        QVERIFY2(last < 0.5 * first, qPrintable(QString("loss %1 -> %2").arg(first).arg(last)));
    }

    void badInputsAreRejected() {
        AlbertForPreTraining model(AlbertConfig::named("tiny"));
        const auto ones = [](std::int64_t b, std::int64_t l) { return torch::ones({b, l}, torch::kLong); };
        const auto zeros = [](std::int64_t b, std::int64_t l) { return torch::zeros({b, l}, torch::kLong); };
        expectInvalid([&] { model->forward(torch::ones({4}, torch::kLong), ones(1, 4), zeros(1, 4)); },
                      "input ids must have shape [batch, length]");
        expectInvalid([&] { model->forward(ones(2, 4), ones(2, 5), zeros(2, 4)); },
                      "must have the input ids' shape");
        expectInvalid([&] { model->forward(ones(1, 129), ones(1, 129), zeros(1, 129)); },
                      "sequence length 129 exceeds max_position_embeddings 128");
        expectInvalid([&] { model->forward(ones(1, 4) * 32000, ones(1, 4), zeros(1, 4)); },
                      "input ids must lie in [0, 32000)");
        expectInvalid([&] { model->forward(ones(1, 4), ones(1, 4), ones(1, 4) * 2); },
                      "token type ids must lie in [0, 2)");
        expectInvalid(
            [&] {
                model->forward(torch::ones({1, 4}), ones(1, 4), zeros(1, 4));
            },
            "must be int64 or int32");
        expectInvalid([&] { model->forwardMasked(ones(1, 4), ones(1, 4), zeros(1, 4), ones(1, 3)); },
                      "MLM labels must have the input ids' shape");
        const auto out = model->forwardMasked(ones(1, 4), ones(1, 4), zeros(1, 4), ones(1, 4));
        expectInvalid([&] { PreTrainingLoss::compute(out, torch::full({1}, 2, torch::kLong)); },
                      "SOP labels must lie in [0, 2)");
        expectInvalid([&] { PreTrainingLoss::compute(out, torch::zeros({3}, torch::kLong)); },
                      "SOP labels must have shape [1]");
        AlbertConfig bad = AlbertConfig::named("tiny");
        bad.numAttentionHeads = 3;
        expectInvalid([&] { AlbertForPreTraining{bad}; }, "multiple of num_attention_heads");
    }

    void autocastGuardIsANoOpOnCpu() {
        AutocastGuard guard(torch::Device(torch::kCPU), AutocastPrecision::Float16);
        QVERIFY(!guard.active());
        torch::manual_seed(9);
        AlbertForPreTraining model(AlbertConfig::named("tiny"));
        const Batch b = randomBatch(1, 4, 32000);
        QCOMPARE(model->forward(b.inputIds, b.attentionMask, b.tokenTypeIds).mlmLogits.scalar_type(),
                 torch::kFloat);
    }

    void autocastOnCuda() {
        if (!torch::cuda::is_available())
            QSKIP("this libtorch has no CUDA device");
        torch::manual_seed(10);
        AlbertForPreTraining model(AlbertConfig::named("tiny"));
        model->to(torch::kCUDA);
        Batch b = randomBatch(2, 8, 32000);
        const auto cuda = [](const at::Tensor& t) { return t.to(torch::kCUDA); };
        {
            AutocastGuard guard(torch::Device(torch::kCUDA), AutocastPrecision::Float16);
            QVERIFY(guard.active());
            const auto out = model->forward(cuda(b.inputIds), cuda(b.attentionMask), cuda(b.tokenTypeIds));
            QCOMPARE(out.mlmLogits.scalar_type(), torch::kHalf);
        }
        const auto out = model->forward(cuda(b.inputIds), cuda(b.attentionMask), cuda(b.tokenTypeIds));
        QCOMPARE(out.mlmLogits.scalar_type(), torch::kFloat);
    }
};

QTEST_APPLESS_MAIN(TestAlbertModel)
#include "tst_albert_model.moc"
