#include "app/model/ModelInfoCommand.h"

#include "app/node/CommandLine.h"
#include "app/node/UsageError.h"
#include "core/model/AlbertConfig.h"
#include "core/model/AlbertForPreTraining.h"
#include "core/model/ModelCheckpoint.h"

#include <nlohmann/json.hpp>
#include <torch/torch.h>

#include <QFileInfo>
#include <QTextStream>

#include <stdexcept>

namespace sahaj::node {

namespace {

using sahaj::model::AlbertConfig;

// Above this many parameters the count comes from the sizes alone instead of from a built model, so that
// asking about a huge config does not allocate gigabytes. The two agree (the model tests check it).
constexpr std::int64_t kMaxParametersToBuild = 250'000'000;

QString knownNames() {
    QStringList names;
    for (const auto& name : AlbertConfig::knownNames())
        names << QString::fromStdString(name);
    return names.join(", ");
}

// A built-in name, a config.json file, or a model directory holding one.
AlbertConfig resolveConfig(const QString& value) {
    for (const auto& name : AlbertConfig::knownNames())
        if (value.toStdString() == name)
            return AlbertConfig::named(name);
    const QFileInfo info(value);
    if (!info.exists())
        throw UsageError(
            QStringLiteral("--config '%1' is neither a known config name (%2) nor an existing file")
                .arg(value, knownNames())
                .toStdString());
    const std::filesystem::path path = info.isDir() ? std::filesystem::path(value.toStdString()) /
                                                          sahaj::model::ModelCheckpoint::kConfigFileName
                                                    : std::filesystem::path(value.toStdString());
    return AlbertConfig::loadFile(path);
}

std::int64_t countParameters(const AlbertConfig& config) {
    const std::int64_t fromSizes = config.parameterCount();
    if (fromSizes > kMaxParametersToBuild)
        return fromSizes;
    torch::NoGradGuard noGrad;
    const sahaj::model::AlbertForPreTraining model(config);
    const std::int64_t built = model->parameterCount();
    if (built != fromSizes)
        throw std::logic_error("parameter count of the built model (" + std::to_string(built) +
                               ") differs from the count from the sizes (" + std::to_string(fromSizes) + ")");
    return built;
}

// 18105474 -> "18,105,474".
QString grouped(std::int64_t value) {
    QString digits = QString::number(value);
    for (qsizetype i = digits.size() - 3; i > (value < 0 ? 1 : 0); i -= 3)
        digits.insert(i, ',');
    return digits;
}

QString megabytes(std::int64_t bytes) {
    return QString::number(static_cast<double>(bytes) / 1e6, 'f', 1) + " MB";
}

} // namespace

QString ModelInfoCommand::description() const {
    return QStringLiteral(
               "Print a model config's sizes, its parameter count (tied weights counted once) and the "
               "size of its weights in fp32 and fp16.\n"
               "--config takes a built-in name (%1), a Hugging Face config.json file, or a model "
               "directory containing one.")
        .arg(knownNames());
}

void ModelInfoCommand::addOptions(QCommandLineParser& parser) const {
    parser.addOption({"config",
                      QStringLiteral("Config name (%1) or path of a config.json.").arg(knownNames()),
                      "NAME|PATH"});
    parser.addOption({"json", "Print one JSON object instead of text."});
}

int ModelInfoCommand::run(const QCommandLineParser& parser) {
    const QString source = CommandLine::requiredValue(parser, "config");
    const AlbertConfig config = resolveConfig(source);
    const std::int64_t parameters = countParameters(config);

    QTextStream out(stdout);
    if (parser.isSet("json")) {
        const nlohmann::json info{
            {"config_source", source.toStdString()},
            {"config", config.toJson()},
            {"parameters", parameters},
            {"size_bytes", {{"float32", parameters * 4}, {"float16", parameters * 2}}},
        };
        out << QString::fromStdString(info.dump(2)) << "\n";
        return 0;
    }
    const auto groupsText = config.numHiddenGroups * config.innerGroupNum == 1
                                ? QStringLiteral("one layer's weights shared by all")
                                : QStringLiteral("%1 group(s) x %2 layer(s) of weights")
                                      .arg(config.numHiddenGroups)
                                      .arg(config.innerGroupNum);
    out << "config: " << source << "\n"
        << "model_type: albert (AlbertForPreTraining)\n"
        << "vocab_size: " << config.vocabSize << "\n"
        << "embedding_size: " << config.embeddingSize << "\n"
        << "hidden_size: " << config.hiddenSize << "\n"
        << "num_hidden_layers: " << config.numHiddenLayers << " (" << groupsText << ")\n"
        << "num_attention_heads: " << config.numAttentionHeads << " (head size "
        << config.hiddenSize / config.numAttentionHeads << ")\n"
        << "intermediate_size: " << config.intermediateSize << "\n"
        << "max_position_embeddings: " << config.maxPositionEmbeddings << "\n"
        << "type_vocab_size: " << config.typeVocabSize << "\n"
        << "hidden_act: " << QString::fromStdString(config.hiddenAct) << "\n"
        << "parameters: " << grouped(parameters) << "\n"
        << "size fp32: " << megabytes(parameters * 4) << "\n"
        << "size fp16: " << megabytes(parameters * 2) << "\n";
    return 0;
}

} // namespace sahaj::node
