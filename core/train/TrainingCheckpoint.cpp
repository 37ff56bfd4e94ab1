#include "core/train/TrainingCheckpoint.h"

#include "core/array/AtomicFile.h"
#include "core/model/ModelCheckpoint.h"
#include "core/model/SafeTensors.h"
#include "core/train/Lamb.h"

#include <QJsonDocument>
#include <QJsonValue>

#include <fstream>
#include <sstream>
#include <stdexcept>
#include <system_error>

#ifndef _WIN32
#include <fcntl.h>
#include <unistd.h>
#endif

namespace fs = std::filesystem;

namespace sahaj::train {

namespace {

constexpr const char* kOptimizerStateFile = "optimizer.safetensors";
constexpr const char* kInfoFile = "optimizer.json";

[[noreturn]] void fail(const std::string& message) {
    throw std::runtime_error(message);
}

// Makes the renames durable before the old checkpoint is deleted (POSIX; Windows has no directory fsync).
void syncDirectory(const fs::path& directory) {
#ifndef _WIN32
    const int fd = ::open(directory.c_str(), O_RDONLY | O_DIRECTORY);
    if (fd >= 0) {
        ::fsync(fd);
        ::close(fd);
    }
#endif
}

double number(const QJsonObject& json, const char* key) {
    const QJsonValue value = json.value(key);
    if (!value.isDouble())
        fail(std::string("optimizer.json: field '") + key + "' is missing or not a number");
    return value.toDouble();
}

std::int64_t integer(const QJsonObject& json, const char* key, std::int64_t min) {
    const double value = number(json, key);
    const auto whole = static_cast<std::int64_t>(value);
    if (static_cast<double>(whole) != value || whole < min)
        fail(std::string("optimizer.json: field '") + key + "' must be an integer >= " + std::to_string(min));
    return whole;
}

bool boolean(const QJsonObject& json, const char* key) {
    const QJsonValue value = json.value(key);
    if (!value.isBool())
        fail(std::string("optimizer.json: field '") + key + "' is missing or not true/false");
    return value.toBool();
}

std::string string(const QJsonObject& json, const char* key) {
    const QJsonValue value = json.value(key);
    if (!value.isString())
        fail(std::string("optimizer.json: field '") + key + "' is missing or not a string");
    return value.toString().toStdString();
}

QJsonObject object(const QJsonObject& json, const char* key) {
    const QJsonValue value = json.value(key);
    if (!value.isObject())
        fail(std::string("optimizer.json: field '") + key + "' is missing or not an object");
    return value.toObject();
}

} // namespace

QJsonObject TrainingCheckpointInfo::toJson() const {
    QJsonObject hyper;
    hyper["lr"] = lamb.learningRate;
    hyper["beta1"] = lamb.beta1;
    hyper["beta2"] = lamb.beta2;
    hyper["eps"] = lamb.eps;
    hyper["weight_decay"] = lamb.weightDecay;
    hyper["clamp_value"] = lamb.clampValue;
    hyper["debias"] = lamb.debias;
    hyper["adam"] = lamb.adam;
    hyper["warmup_steps"] = qint64(warmupSteps);
    hyper["schedule_steps"] = qint64(scheduleSteps);
    hyper["clip_norm"] = clipNorm;

    QJsonObject o;
    o["format"] = "sahaj-training-checkpoint";
    o["format_version"] = kFormatVersion;
    o["optimizer"] = "lamb";
    o["step"] = qint64(step);
    o["data_position"] = dataPosition.toJson();
    // A string: JSON numbers are doubles to many readers and cannot hold every 64-bit seed.
    o["seed"] = QString::number(seed);
    o["config_name"] = QString::fromStdString(configName);
    o["batch_size"] = qint64(batchSize);
    o["micro_batch_size"] = qint64(microBatchSize);
    o["sequence_length"] = qint64(sequenceLength);
    o["hyperparameters"] = hyper;
    o["corpus"] = QString::fromStdString(corpus);
    o["documents"] = text::CorpusReaderOptions::documentsName(documents);
    o["tokenizer"] = QString::fromStdString(tokenizer);
    return o;
}

TrainingCheckpointInfo TrainingCheckpointInfo::fromJson(const QJsonObject& json) {
    if (json.value("format").toString() != "sahaj-training-checkpoint")
        fail("optimizer.json: not a Sahaj training checkpoint (field 'format')");
    const std::int64_t version = integer(json, "format_version", 1);
    if (version != kFormatVersion)
        fail("optimizer.json: format version " + std::to_string(version) +
             " is not supported (this build reads " + std::to_string(kFormatVersion) + ")");
    if (string(json, "optimizer") != "lamb")
        fail("optimizer.json: optimizer '" + string(json, "optimizer") + "' is not supported");

    TrainingCheckpointInfo info;
    info.step = integer(json, "step", 0);
    try {
        info.dataPosition = text::StreamPosition::fromJson(object(json, "data_position"));
    } catch (const std::runtime_error& e) {
        fail(std::string("optimizer.json: data_position: ") + e.what());
    }
    bool ok = false;
    info.seed = QString::fromStdString(string(json, "seed")).toULongLong(&ok);
    if (!ok)
        fail("optimizer.json: field 'seed' is not an unsigned integer");
    info.configName = string(json, "config_name");
    info.batchSize = integer(json, "batch_size", 1);
    info.microBatchSize = integer(json, "micro_batch_size", 1);
    info.sequenceLength = integer(json, "sequence_length", 1);
    info.corpus = string(json, "corpus");
    const std::optional<text::PlainTextDocuments> documents =
        text::CorpusReaderOptions::documentsFromName(QString::fromStdString(string(json, "documents")));
    if (!documents)
        fail("optimizer.json: field 'documents' must be \"lines\" or \"paragraphs\"");
    info.documents = *documents;
    info.tokenizer = string(json, "tokenizer");

    const QJsonObject hyper = object(json, "hyperparameters");
    info.lamb.learningRate = number(hyper, "lr");
    info.lamb.beta1 = number(hyper, "beta1");
    info.lamb.beta2 = number(hyper, "beta2");
    info.lamb.eps = number(hyper, "eps");
    info.lamb.weightDecay = number(hyper, "weight_decay");
    info.lamb.clampValue = number(hyper, "clamp_value");
    info.lamb.debias = boolean(hyper, "debias");
    info.lamb.adam = boolean(hyper, "adam");
    info.warmupSteps = integer(hyper, "warmup_steps", 0);
    info.scheduleSteps = integer(hyper, "schedule_steps", 1);
    info.clipNorm = number(hyper, "clip_norm");
    try {
        info.lamb.validate();
    } catch (const std::invalid_argument& e) {
        fail(std::string("optimizer.json: ") + e.what());
    }
    return info;
}

fs::path TrainingCheckpoint::directory(const fs::path& outputDir) {
    return outputDir / "checkpoint";
}

fs::path TrainingCheckpoint::readableDirectory(const fs::path& outputDir) {
    const fs::path current = directory(outputDir);
    if (fs::exists(current / kInfoFile))
        return current;
    // A crash between the two renames of save() leaves only the previous checkpoint, under its old name.
    const fs::path previous = outputDir / "checkpoint.old";
    if (fs::exists(previous / kInfoFile))
        return previous;
    return {};
}

bool TrainingCheckpoint::exists(const fs::path& outputDir) {
    return !readableDirectory(outputDir).empty();
}

void TrainingCheckpoint::save(const fs::path& outputDir, const model::AlbertForPreTraining& model,
                              const Lamb& optimizer, const TrainingCheckpointInfo& info) {
    const fs::path target = directory(outputDir);
    const fs::path staging = outputDir / "checkpoint.tmp";
    const fs::path previous = outputDir / "checkpoint.old";
    std::error_code ec;
    fs::create_directories(outputDir, ec);
    if (ec)
        fail("cannot create " + outputDir.string() + ": " + ec.message());
    fs::remove_all(staging, ec);
    fs::create_directories(staging, ec);
    if (ec)
        fail("cannot create " + staging.string() + ": " + ec.message());

    model::ModelCheckpoint::save(model, staging);
    model::SafeTensors::write(staging / kOptimizerStateFile, optimizer.exportState(),
                              {{"format", "pt"}, {"optimizer", "lamb"}, {"step", std::to_string(info.step)}});
    array::AtomicFile::write(staging / kInfoFile,
                             QJsonDocument(info.toJson()).toJson(QJsonDocument::Indented).toStdString());
    syncDirectory(staging);

    // Swap: current -> .old, staging -> current, drop .old. At every instant one complete checkpoint
    // exists under a name readableDirectory() looks at.
    if (fs::exists(target)) {
        fs::remove_all(previous, ec);
        fs::rename(target, previous, ec);
        if (ec)
            fail("cannot move the previous checkpoint aside: " + ec.message());
    }
    fs::rename(staging, target, ec);
    if (ec)
        fail("cannot move the new checkpoint into place: " + ec.message());
    syncDirectory(outputDir);
    fs::remove_all(previous, ec);
}

TrainingCheckpointInfo TrainingCheckpoint::readInfo(const fs::path& outputDir) {
    const fs::path dir = readableDirectory(outputDir);
    if (dir.empty())
        fail("no training checkpoint in " + outputDir.string() + " (expected " +
             (directory(outputDir) / kInfoFile).string() + ")");
    std::ifstream in(dir / kInfoFile, std::ios::binary);
    std::stringstream content;
    content << in.rdbuf();
    if (!in.good() && !in.eof())
        fail("cannot read " + (dir / kInfoFile).string());
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromStdString(content.str()), &error);
    if (error.error != QJsonParseError::NoError || !doc.isObject())
        fail((dir / kInfoFile).string() + ": not a JSON object (" + error.errorString().toStdString() + ")");
    try {
        return TrainingCheckpointInfo::fromJson(doc.object());
    } catch (const std::runtime_error& e) {
        fail(dir.string() + "/" + e.what());
    }
}

TrainingCheckpointInfo TrainingCheckpoint::load(const fs::path& outputDir, model::AlbertForPreTraining& model,
                                                Lamb& optimizer) {
    TrainingCheckpointInfo info = readInfo(outputDir);
    const fs::path dir = readableDirectory(outputDir);
    const model::AlbertConfig saved =
        model::AlbertConfig::loadFile(dir / model::ModelCheckpoint::kConfigFileName);
    if (!(saved == model->config()))
        fail((dir / model::ModelCheckpoint::kConfigFileName).string() +
             ": the checkpoint's model config differs from the one requested (config '" + info.configName +
             "')");
    model::ModelCheckpoint::loadWeights(model, dir / model::ModelCheckpoint::kWeightsFileName);
    const fs::path stateFile = dir / kOptimizerStateFile;
    try {
        optimizer.importState(model::SafeTensors::read(stateFile).tensors);
    } catch (const std::runtime_error& e) {
        fail(stateFile.string() + ": " + e.what());
    }
    for (const auto& group : optimizer.groups()) {
        for (const auto& parameter : group.parameters) {
            if (optimizer.parameterStep(parameter.name) > info.step)
                fail(stateFile.string() + ": '" + parameter.name +
                     "' has taken more steps than the checkpoint's " + std::to_string(info.step));
        }
    }
    return info;
}

} // namespace sahaj::train
