// The engine's torch-free description of the model (AlbertParameterLayout) against the real module: the
// same names, shapes and order as named_parameters() for every built-in size and for grouped layers, and
// initial-value rules that say what Hugging Face's scheme does to each module's parameters.
#include "core/model/AlbertForPreTraining.h"
#include "core/model/AlbertParameterLayout.h"

#include <QTest>

#include <torch/torch.h>

#include <map>

using namespace sahaj;
using Rule = optim::InitialValueRule;

namespace {

// What each module type of the real model starts with (Hugging Face's _init_weights), read from the module
// tree itself: the oracle for the layout's rules.
std::map<std::string, Rule> rulesOfModules(const torch::nn::Module& module, double std) {
    const Rule normal{Rule::Kind::Normal, std, 0.0, std::nullopt, 0};
    const auto constant = [](double value) {
        return Rule{Rule::Kind::Constant, 0.0, value, std::nullopt, 0};
    };
    std::map<std::string, Rule> rules;
    for (const auto& item : module.named_modules("", /*include_self=*/false)) {
        const std::string prefix = item.key() + ".";
        if (const auto* linear = item.value()->as<torch::nn::Linear>()) {
            rules[prefix + "weight"] = normal;
            if (linear->bias.defined())
                rules[prefix + "bias"] = constant(0.0);
        } else if (const auto* embedding = item.value()->as<torch::nn::Embedding>()) {
            Rule rule = normal;
            if (const auto& padding = embedding->options.padding_idx()) {
                rule.zeroRow = static_cast<std::size_t>(*padding);
                rule.rowLength = static_cast<std::size_t>(embedding->weight.size(1));
            }
            rules[prefix + "weight"] = rule;
        } else if (item.value()->as<torch::nn::LayerNorm>()) {
            rules[prefix + "weight"] = constant(1.0);
            rules[prefix + "bias"] = constant(0.0);
        }
    }
    for (const auto& item : module.named_parameters()) {
        if (rules.count(item.key()))
            continue;
        const at::Tensor values = item.value().detach().flatten();
        if (values.numel() > 0 && values.eq(values[0]).all().item<bool>())
            rules[item.key()] = constant(values[0].item<double>()); // a module's own constant (MLM bias)
    }
    return rules;
}

model::AlbertConfig grouped() {
    model::AlbertConfig config = model::AlbertConfig::named("tiny");
    config.numHiddenLayers = 4;
    config.numHiddenGroups = 2;
    config.innerGroupNum = 2;
    config.padTokenId = std::nullopt;
    return config;
}

} // namespace

class TestParameterLayout : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void matchesTheModule_data() {
        QTest::addColumn<QString>("name");
        for (const char* name : {"tiny", "small", "sahajbert", "grouped"})
            QTest::newRow(name) << QString::fromLatin1(name);
    }

    void matchesTheModule() {
        QFETCH(QString, name);
        const model::AlbertConfig config =
            name == "grouped" ? grouped() : model::AlbertConfig::named(name.toStdString());
        const model::AlbertForPreTraining module(config);
        const std::vector<model::ParameterLayoutEntry> layout = model::AlbertParameterLayout::of(config);
        const auto parameters = module->named_parameters();
        QCOMPARE(layout.size(), parameters.size());
        const std::map<std::string, Rule> oracle = rulesOfModules(*module, config.initializerRange);
        for (std::size_t i = 0; i < layout.size(); ++i) {
            QCOMPARE(layout[i].name, parameters[i].key());
            QCOMPARE(layout[i].shape, parameters[i].value().sizes().vec());
            QVERIFY2(oracle.count(layout[i].name), layout[i].name.c_str());
            QVERIFY2(layout[i].initialValue == oracle.at(layout[i].name), layout[i].name.c_str());
        }
        QCOMPARE(model::AlbertParameterLayout::elements(layout), module->parameterCount());
        QCOMPARE(model::AlbertParameterLayout::elements(layout), config.parameterCount());
    }

    void refusesABadConfig() {
        model::AlbertConfig config = model::AlbertConfig::named("tiny");
        config.hiddenSize = 0;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, model::AlbertParameterLayout::of(config));
    }
};

QTEST_GUILESS_MAIN(TestParameterLayout)
#include "tst_parameter_layout.moc"
