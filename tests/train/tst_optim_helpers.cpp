// Parameter grouping (which names get no weight decay), the warmup/decay schedule and gradient clipping.
#include "core/optim/LinearWarmupSchedule.h"
#include "core/train/GradientClipping.h"
#include "core/train/ParameterGrouping.h"

#include <ATen/ATen.h>
#include <QtTest>

#include <cmath>
#include <limits>

using sahaj::optim::LinearWarmupSchedule;
using sahaj::train::clipGradientNorm;
using sahaj::train::NamedParameter;
using sahaj::train::ParameterGrouping;

class TestOptimHelpers : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void noDecayNames_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("exempt");
        // Hugging Face AlbertForPreTraining names.
        QTest::newRow("word embeddings") << "albert.embeddings.word_embeddings.weight" << false;
        QTest::newRow("embedding LayerNorm gain") << "albert.embeddings.LayerNorm.weight" << true;
        QTest::newRow("embedding LayerNorm bias") << "albert.embeddings.LayerNorm.bias" << true;
        QTest::newRow("mapping in") << "albert.encoder.embedding_hidden_mapping_in.weight" << false;
        QTest::newRow("mapping in bias") << "albert.encoder.embedding_hidden_mapping_in.bias" << true;
        QTest::newRow("query")
            << "albert.encoder.albert_layer_groups.0.albert_layers.0.attention.query.weight" << false;
        QTest::newRow("attention LayerNorm")
            << "albert.encoder.albert_layer_groups.0.albert_layers.0.attention.LayerNorm.weight" << true;
        QTest::newRow("full layer norm")
            << "albert.encoder.albert_layer_groups.0.albert_layers.0.full_layer_layer_norm.weight" << true;
        QTest::newRow("ffn") << "albert.encoder.albert_layer_groups.0.albert_layers.0.ffn.weight" << false;
        QTest::newRow("ffn output bias")
            << "albert.encoder.albert_layer_groups.0.albert_layers.0.ffn_output.bias" << true;
        QTest::newRow("pooler") << "albert.pooler.weight" << false;
        QTest::newRow("predictions LayerNorm") << "predictions.LayerNorm.weight" << true;
        QTest::newRow("predictions bias") << "predictions.bias" << true;
        QTest::newRow("decoder") << "predictions.decoder.weight" << false;
        QTest::newRow("sop classifier") << "sop_classifier.classifier.weight" << false;
        QTest::newRow("bare bias") << "bias" << true;
        // Only the owning module's name counts, not a parent's, and not a look-alike leaf.
        QTest::newRow("parent named layer_norm") << "layer_norm_stack.dense.weight" << false;
        QTest::newRow("biased leaf") << "dense.biases" << false;
    }

    void noDecayNames() {
        QFETCH(QString, name);
        QFETCH(bool, exempt);
        QCOMPARE(ParameterGrouping::excludedFromWeightDecay(name.toStdString()), exempt);
    }

    void splitKeepsOrderAndSkipsFrozen() {
        std::vector<NamedParameter> parameters = {
            {"dense.weight", at::zeros({2, 2}).requires_grad_()},
            {"dense.bias", at::zeros({2}).requires_grad_()},
            {"frozen.weight", at::zeros({2})},
            {"LayerNorm.weight", at::zeros({2}).requires_grad_()},
            {"out.weight", at::zeros({2, 2}).requires_grad_()},
        };
        const auto groups = ParameterGrouping::split(parameters, 0.01);
        QCOMPARE(groups.size(), size_t(2));
        QCOMPARE(groups[0].weightDecay, 0.01);
        QCOMPARE(groups[1].weightDecay, 0.0);
        QCOMPARE(groups[0].parameters.size(), size_t(2));
        QCOMPARE(groups[0].parameters[0].name, std::string("dense.weight"));
        QCOMPARE(groups[0].parameters[1].name, std::string("out.weight"));
        QCOMPARE(groups[1].parameters.size(), size_t(2));
        QCOMPARE(groups[1].parameters[0].name, std::string("dense.bias"));
        QCOMPARE(groups[1].parameters[1].name, std::string("LayerNorm.weight"));
    }

    // Values of Hugging Face's get_linear_schedule_with_warmup(warmup=4, total=10), peak 2.0.
    void scheduleValues_data() {
        QTest::addColumn<qint64>("step");
        QTest::addColumn<double>("lr");
        QTest::newRow("start") << qint64(0) << 0.0;
        QTest::newRow("warmup 1") << qint64(1) << 0.5;
        QTest::newRow("warmup 3") << qint64(3) << 1.5;
        QTest::newRow("peak") << qint64(4) << 2.0;
        QTest::newRow("decay 5") << qint64(5) << 2.0 * 5.0 / 6.0;
        QTest::newRow("decay 7") << qint64(7) << 1.0;
        QTest::newRow("end") << qint64(10) << 0.0;
        QTest::newRow("past end") << qint64(15) << 0.0;
    }

    void scheduleValues() {
        QFETCH(qint64, step);
        QFETCH(double, lr);
        const LinearWarmupSchedule schedule(2.0, 4, 10);
        QCOMPARE(schedule.learningRate(step), lr);
    }

    void sahajbertSchedule() {
        const LinearWarmupSchedule schedule(1.76e-3, 5000, 125000);
        QCOMPARE(schedule.learningRate(2500), 1.76e-3 * 0.5);
        QCOMPARE(schedule.learningRate(5000), 1.76e-3);
        QCOMPARE(schedule.learningRate(65000), 1.76e-3 * 0.5);
    }

    void scheduleEdgeCases() {
        // No warmup: full rate at once.
        QCOMPARE(LinearWarmupSchedule(1.0, 0, 4).learningRate(0), 1.0);
        QCOMPARE(LinearWarmupSchedule(1.0, 0, 4).learningRate(2), 0.5);
        // Warmup longer than the run: still rising when the run ends (the denominator is max(1, ...)).
        QCOMPARE(LinearWarmupSchedule(1.0, 10, 4).learningRate(3), 0.3);
        QCOMPARE(LinearWarmupSchedule(1.0, 10, 4).learningRate(10), 0.0);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, LinearWarmupSchedule(-1.0, 1, 2));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, LinearWarmupSchedule(1.0, -1, 2));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, LinearWarmupSchedule(1.0, 1, 0));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 LinearWarmupSchedule(std::numeric_limits<double>::infinity(), 1, 2));
    }

    void clipScalesToMaxNorm() {
        at::Tensor a = at::zeros({2}).requires_grad_();
        at::Tensor b = at::zeros({1}).requires_grad_();
        at::Tensor noGrad = at::zeros({1}).requires_grad_();
        a.mutable_grad() = at::tensor({3.0f, 0.0f});
        b.mutable_grad() = at::tensor({4.0f});
        const double norm = clipGradientNorm({a, b, noGrad}, 1.0);
        QCOMPARE(norm, 5.0);
        QVERIFY(std::abs(a.grad()[0].item<double>() - 0.6) < 1e-6);
        QVERIFY(std::abs(b.grad()[0].item<double>() - 0.8) < 1e-6);
        QVERIFY(!noGrad.grad().defined());
    }

    void clipLeavesSmallGradients() {
        at::Tensor a = at::zeros({2}).requires_grad_();
        a.mutable_grad() = at::tensor({0.3f, 0.4f});
        QCOMPARE(clipGradientNorm({a}, 1.0), double(0.5f));
        QCOMPARE(a.grad()[1].item<float>(), 0.4f);
        QCOMPARE(clipGradientNorm({at::zeros({1})}, 1.0), 0.0);
    }

    void clipReportsNonFinite() {
        at::Tensor a = at::zeros({2}).requires_grad_();
        a.mutable_grad() = at::tensor({std::numeric_limits<float>::infinity(), 1.0f});
        QVERIFY(!std::isfinite(clipGradientNorm({a}, 1.0)));
        QCOMPARE(a.grad()[1].item<float>(), 1.0f);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, clipGradientNorm({a}, 0.0));
    }
};

QTEST_APPLESS_MAIN(TestOptimHelpers)
#include "tst_optim_helpers.moc"
