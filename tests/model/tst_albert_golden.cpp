// The C++ model against Hugging Face's AlbertForPreTraining: golden/make_albert_golden.py builds a small
// model after transformers' modeling_albert.py from PyTorch modules, saves it in Hugging Face layout and
// records its logits for a padded batch. Loading that file and running the same batch must give the same
// logits: names, shapes, tying, the grouping rule, gelu_new, LayerNorm placement and the mask all agree.
#include "core/model/ModelCheckpoint.h"

#include <torch/torch.h>

#include <QtTest>

using namespace sahaj::model;

class TestAlbertGolden : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void logitsMatchHuggingFace() {
        torch::set_num_threads(1);
        const std::filesystem::path dir =
            std::filesystem::path(qEnvironmentVariable("SAHAJ_SOURCE_DIR").toStdString()) /
            "tests/model/data/albert-golden";
        QVERIFY2(std::filesystem::exists(dir / "config.json"),
                 "golden data missing (SAHAJ_SOURCE_DIR not set?)");
        AlbertForPreTraining model = ModelCheckpoint::load(dir);
        model->eval();
        QCOMPARE(model->config().numHiddenGroups, std::int64_t{2});
        QCOMPARE(model->config().innerGroupNum, std::int64_t{2});

        const auto expected = SafeTensors::read(dir / "expected.safetensors").tensors;
        torch::NoGradGuard noGrad;
        const PreTrainingOutput out = model->forward(expected.at("input_ids"), expected.at("attention_mask"),
                                                     expected.at("token_type_ids"));
        const at::Tensor& mlm = expected.at("mlm_logits");
        const at::Tensor& sop = expected.at("sop_logits");
        QVERIFY(out.mlmLogits.sizes().equals(mlm.sizes()));
        const double mlmError = (out.mlmLogits - mlm).abs().max().item<double>();
        const double sopError = (out.sopLogits - sop).abs().max().item<double>();
        const double scale = mlm.abs().max().item<double>();
        QVERIFY2(mlmError <= 1e-5 * std::max(1.0, scale),
                 qPrintable(QString("MLM logits differ by %1 (max |logit| %2)").arg(mlmError).arg(scale)));
        QVERIFY2(sopError <= 1e-5 * std::max(1.0, sop.abs().max().item<double>()),
                 qPrintable(QString("SOP logits differ by %1").arg(sopError)));
    }
};

QTEST_APPLESS_MAIN(TestAlbertGolden)
#include "tst_albert_golden.moc"
