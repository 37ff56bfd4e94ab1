// LAMB against golden values computed independently by scripts/lamb-golden.py, and the optimiser state's
// export/import round trip and validation.
#include "core/train/Lamb.h"
#include "tests/common/LambGoldenOptions.h"

#include <ATen/ATen.h>
#include <QtTest>
#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <map>

using sahaj::optim::LambOptions;
using sahaj::train::Lamb;
using sahaj::train::LambParameterGroup;
using sahaj::train::NamedParameter;

namespace {

at::Tensor tensorFrom(const nlohmann::json& values, const std::vector<int64_t>& shape, at::ScalarType type) {
    std::vector<double> flat = values.get<std::vector<double>>();
    return at::tensor(flat, at::TensorOptions().dtype(at::kDouble)).reshape(shape).to(type);
}

// Largest |actual - expected| / |expected| over all elements, with an absolute floor for values near 0.
double relativeError(const at::Tensor& actual, const at::Tensor& expected) {
    const at::Tensor a = actual.to(at::kDouble);
    const at::Tensor e = expected.to(at::kDouble);
    return ((a - e).abs() / (e.abs() + 1e-12)).max().item<double>();
}

std::vector<LambParameterGroup> smallGroups(const std::vector<at::Tensor>& tensors) {
    LambParameterGroup decay{{{"a.weight", tensors[0]}, {"b.weight", tensors[1]}}, 0.01};
    LambParameterGroup exempt{{{"a.bias", tensors[2]}}, 0.0};
    return {decay, exempt};
}

std::vector<at::Tensor> smallTensors(uint64_t seed) {
    auto gen = at::make_generator<at::CPUGeneratorImpl>(seed);
    return {at::randn({4, 3}, gen).requires_grad_(), at::randn({2, 2}, gen).requires_grad_(),
            at::randn({3}, gen).requires_grad_()};
}

void setGradients(const std::vector<at::Tensor>& tensors, uint64_t seed) {
    auto gen = at::make_generator<at::CPUGeneratorImpl>(seed);
    for (const auto& t : tensors)
        t.mutable_grad() = at::randn(t.sizes(), gen);
}

} // namespace

class TestLamb : public QObject {
    Q_OBJECT

private:
    nlohmann::json golden_;

    void runGolden(at::ScalarType type, double tolerance) {
        for (const auto& c : golden_.at("cases")) {
            const std::string caseName = c.at("name").get<std::string>();
            std::map<std::string, LambParameterGroup> groups;
            std::vector<std::pair<nlohmann::json, at::Tensor>> params;
            for (const auto& p : c.at("params")) {
                const auto shape = p.at("shape").get<std::vector<int64_t>>();
                at::Tensor t = tensorFrom(p.at("initial"), shape, type).requires_grad_();
                const std::string group = p.at("group").get<std::string>();
                groups[group].weightDecay = c.at("groups").at(group).get<double>();
                groups[group].parameters.push_back({p.at("name").get<std::string>(), t});
                params.emplace_back(p, t);
            }
            std::vector<LambParameterGroup> list;
            for (auto& [name, group] : groups)
                list.push_back(group);
            Lamb lamb(list, sahaj::test::lambOptionsFrom(c.at("options")));
            const int steps = golden_.at("steps").get<int>();
            for (int step = 0; step < steps; ++step) {
                lamb.zeroGrad();
                for (auto& [p, t] : params) {
                    const auto& grad = p.at("grads").at(step);
                    if (!grad.is_null())
                        t.mutable_grad() = tensorFrom(grad, t.sizes().vec(), type);
                }
                lamb.step();
                for (auto& [p, t] : params) {
                    const at::Tensor expected =
                        tensorFrom(p.at("expected").at(step), t.sizes().vec(), at::kDouble);
                    const double error = relativeError(t.detach(), expected);
                    if (error > tolerance)
                        QFAIL(qPrintable(QStringLiteral("case %1, %2, step %3: relative error %4 > %5")
                                             .arg(QString::fromStdString(caseName))
                                             .arg(QString::fromStdString(p.at("name").get<std::string>()))
                                             .arg(step + 1)
                                             .arg(error)
                                             .arg(tolerance)));
                }
            }
            const auto state = lamb.exportState();
            for (auto& [p, t] : params) {
                const std::string name = p.at("name").get<std::string>();
                QCOMPARE(lamb.parameterStep(name), p.at("final_step").get<int64_t>());
                QCOMPARE(state.at(name + ".step").item<int64_t>(), p.at("final_step").get<int64_t>());
                const auto shape = t.sizes().vec();
                QVERIFY(relativeError(state.at(name + ".exp_avg"),
                                      tensorFrom(p.at("final_exp_avg"), shape, at::kDouble)) <= tolerance);
                QVERIFY(relativeError(state.at(name + ".exp_avg_sq"),
                                      tensorFrom(p.at("final_exp_avg_sq"), shape, at::kDouble)) <= tolerance);
            }
        }
    }

private Q_SLOTS:
    void initTestCase() {
        const QByteArray source = qgetenv("SAHAJ_SOURCE_DIR");
        const std::string path =
            (source.isEmpty() ? std::string(SAHAJ_TEST_SOURCE_DIR) : source.toStdString()) +
            "/tests/train/data/lamb-golden.json";
        std::ifstream in(path);
        QVERIFY2(in.good(), qPrintable(QString::fromStdString("cannot open " + path)));
        golden_ = nlohmann::json::parse(in);
        QCOMPARE(golden_.at("cases").size(), size_t(3));
    }

    // The golden values are float64; in float64 the implementation must agree to 1e-6 relative.
    void goldenFloat64() { runGolden(at::kDouble, 1e-6); }

    // The same inputs in float32 (how the model trains) stay close: only float32 rounding differs.
    void goldenFloat32() { runGolden(at::kFloat, 2e-5); }

    void skipsParametersWithoutGradient() {
        auto tensors = smallTensors(1);
        Lamb lamb(smallGroups(tensors), LambOptions{});
        const at::Tensor before = tensors[1].detach().clone();
        tensors[0].mutable_grad() = at::ones({4, 3});
        lamb.step();
        QVERIFY(at::equal(tensors[1].detach(), before));
        QCOMPARE(lamb.parameterStep("a.weight"), int64_t(1));
        QCOMPARE(lamb.parameterStep("b.weight"), int64_t(0));
        QVERIFY(!tensors[0].detach().equal(smallTensors(1)[0].detach()));
    }

    void stepDoesNotRecordAutograd() {
        auto tensors = smallTensors(2);
        Lamb lamb(smallGroups(tensors), LambOptions{});
        setGradients(tensors, 3);
        lamb.step();
        QVERIFY(tensors[0].is_leaf());
        QVERIFY(!tensors[0].grad_fn());
        lamb.zeroGrad();
        QVERIFY(!tensors[0].grad().defined());
    }

    // Export after 2 steps, import into a fresh optimiser over copies of the parameters, continue both:
    // the results must be bitwise equal.
    void stateRoundTrip() {
        auto original = smallTensors(4);
        Lamb a(smallGroups(original), LambOptions{});
        for (uint64_t s = 0; s < 2; ++s) {
            setGradients(original, 10 + s);
            a.step();
        }
        const auto state = a.exportState();
        QCOMPARE(state.size(), size_t(9));
        QCOMPARE(state.at("a.bias.step").scalar_type(), at::kLong);
        QCOMPARE(state.at("a.bias.step").item<int64_t>(), int64_t(2));

        std::vector<at::Tensor> copies;
        for (const auto& t : original)
            copies.push_back(t.detach().clone().requires_grad_());
        Lamb b(smallGroups(copies), LambOptions{});
        b.importState(state);
        QCOMPARE(b.parameterStep("a.weight"), int64_t(2));
        for (uint64_t s = 2; s < 5; ++s) {
            setGradients(original, 10 + s);
            setGradients(copies, 10 + s);
            a.step();
            b.step();
        }
        for (size_t i = 0; i < original.size(); ++i)
            QVERIFY(at::equal(original[i].detach(), copies[i].detach()));
        // Imported tensors are copies: changing the exported map afterwards must not leak into b.
        const auto again = b.exportState();
        QVERIFY(at::equal(again.at("a.weight.exp_avg"), a.exportState().at("a.weight.exp_avg")));
    }

    void exportBeforeFirstStepIsZero() {
        auto tensors = smallTensors(5);
        Lamb lamb(smallGroups(tensors), LambOptions{});
        const auto state = lamb.exportState();
        QCOMPARE(state.at("b.weight.exp_avg").sizes().vec(), std::vector<int64_t>({2, 2}));
        QCOMPARE(state.at("b.weight.exp_avg").abs().sum().item<double>(), 0.0);
        QCOMPARE(state.at("b.weight.step").item<int64_t>(), int64_t(0));
    }

    void importRejectsBadState_data() {
        QTest::addColumn<QString>("mutation");
        QTest::addColumn<QString>("message");
        QTest::newRow("missing") << "missing"
                                 << "missing tensor 'a.weight.exp_avg'";
        QTest::newRow("shape") << "shape"
                               << "has shape [3, 4]";
        QTest::newRow("extra") << "extra"
                               << "unexpected tensor 'c.weight.exp_avg'";
        QTest::newRow("negative step") << "negative"
                                       << "is negative";
        QTest::newRow("float step") << "floatstep"
                                    << "must be one integer";
        QTest::newRow("nan") << "nan"
                             << "non-finite";
        QTest::newRow("negative v") << "negv"
                                    << "negative values";
    }

    void importRejectsBadState() {
        QFETCH(QString, mutation);
        QFETCH(QString, message);
        auto tensors = smallTensors(6);
        Lamb lamb(smallGroups(tensors), LambOptions{});
        setGradients(tensors, 7);
        lamb.step();
        const auto good = lamb.exportState();
        auto bad = good;
        if (mutation == "missing")
            bad.erase("a.weight.exp_avg");
        else if (mutation == "shape")
            bad["a.weight.exp_avg"] = at::zeros({3, 4});
        else if (mutation == "extra")
            bad["c.weight.exp_avg"] = at::zeros({1});
        else if (mutation == "negative")
            bad["a.bias.step"] = at::full({1}, -1, at::kLong);
        else if (mutation == "floatstep")
            bad["a.bias.step"] = at::full({1}, 1.5);
        else if (mutation == "nan")
            bad["b.weight.exp_avg"] = at::full({2, 2}, std::nan(""));
        else if (mutation == "negv")
            bad["b.weight.exp_avg_sq"] = at::full({2, 2}, -1.0);
        try {
            lamb.importState(bad);
            QFAIL("importState accepted a bad state");
        } catch (const std::runtime_error& e) {
            QVERIFY2(QString(e.what()).contains(message), e.what());
        }
        // A rejected import leaves the state as it was.
        QVERIFY(at::equal(lamb.exportState().at("a.weight.exp_avg"), good.at("a.weight.exp_avg")));
        QCOMPARE(lamb.parameterStep("a.bias"), int64_t(1));
    }

    void rejectsBadConstruction() {
        auto tensors = smallTensors(8);
        LambOptions badBeta;
        badBeta.beta2 = 1.0;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, Lamb(smallGroups(tensors), badBeta));
        LambOptions nanLr;
        nanLr.learningRate = std::nan("");
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, Lamb(smallGroups(tensors), nanLr));
        auto duplicate = smallGroups(tensors);
        duplicate[1].parameters.push_back({"a.weight", tensors[2]});
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, Lamb(duplicate, LambOptions{}));
        Lamb lamb(smallGroups(tensors), LambOptions{});
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, lamb.setLearningRate(-1.0));
    }
};

QTEST_APPLESS_MAIN(TestLamb)
#include "tst_lamb.moc"
