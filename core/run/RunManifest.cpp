#include "core/run/RunManifest.h"

#include "core/run/ManifestObjectReader.h"
#include "core/run/ManifestRefusal.h"
#include "core/run/ManifestSyntax.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonParseError>
#include <QSaveFile>

#include <nlohmann/json.hpp>

#include <cmath>
#include <limits>
#include <stdexcept>

namespace sahaj::run {

namespace {

// A manifest is a few kilobytes; the cap keeps a wrong file (a corpus, a checkpoint) from filling memory.
constexpr qint64 kMaxManifestBytes = 4 * 1024 * 1024;
constexpr std::int64_t kMaxCount = std::numeric_limits<std::int32_t>::max();
// Integers beyond 2^53 do not survive a round trip through JSON readers that use doubles.
constexpr std::int64_t kMaxBytes = (std::int64_t{1} << 53) - 1;
// Places of one shard: enough for a few mirrors and the coordinator, few enough that trying them all
// after a failure stays quick.
constexpr qsizetype kMaxMirrors = 8;
// sahajBERT's tokenizer.json is 2.3 MB; a bound keeps a lying server from filling the disk.
constexpr std::int64_t kMaxTokenizerBytes = 64ll << 20;

QString shown(double value) {
    return QString::number(value, 'g', QLocale::FloatingPointShortest);
}

void requireInteger(const QString& field, std::int64_t value, std::int64_t min, std::int64_t max) {
    if (value < min || value > max)
        refuseManifest(QStringLiteral("%1 must be an integer in [%2, %3], got %4")
                           .arg(field)
                           .arg(min)
                           .arg(max)
                           .arg(value));
}

// `range` reads like "in (0, 1)"; the NaN-proof form of the test is the caller's `ok`.
void requireNumber(const QString& field, double value, bool ok, const char* range) {
    if (!ok || !std::isfinite(value))
        refuseManifest(
            QStringLiteral("%1 must be a number %2, got %3").arg(field, QLatin1String(range), shown(value)));
}

model::AlbertConfig modelFromJson(const QJsonValue& value) {
    if (!value.isString() && !value.isObject())
        refuseManifest(
            QStringLiteral("model must be a built-in config name or a Hugging Face config object, got ") +
            ManifestObjectReader::describe(value));
    try {
        if (value.isString())
            return model::AlbertConfig::named(value.toString().toStdString());
        const QByteArray text = QJsonDocument(value.toObject()).toJson(QJsonDocument::Compact);
        return model::AlbertConfig::fromJson(nlohmann::json::parse(text.toStdString()));
    } catch (const std::invalid_argument& e) {
        refuseManifest(QStringLiteral("model: ") + QString::fromUtf8(e.what()));
    }
}

QJsonObject modelToJson(const model::AlbertConfig& config) {
    return QJsonDocument::fromJson(QByteArray::fromStdString(config.toJson().dump())).object();
}

TokenizerReference tokenizerFromJson(const QJsonObject& json) {
    ManifestObjectReader reader(json, QStringLiteral("tokenizer"));
    TokenizerReference tokenizer;
    tokenizer.path = reader.optionalString(QStringLiteral("path")).value_or(QString());
    tokenizer.url = reader.optionalString(QStringLiteral("url")).value_or(QString());
    tokenizer.sha256 = reader.string(QStringLiteral("sha256"));
    tokenizer.bytes = reader.integer(QStringLiteral("bytes"), 0);
    reader.finish();
    return tokenizer;
}

QJsonObject tokenizerToJson(const TokenizerReference& tokenizer) {
    QJsonObject json{{"sha256", tokenizer.sha256}};
    if (!tokenizer.path.isEmpty())
        json["path"] = tokenizer.path;
    if (!tokenizer.url.isEmpty()) {
        json["url"] = tokenizer.url;
        json["bytes"] = qint64(tokenizer.bytes);
    }
    return json;
}

TrainingSettings trainingFromJson(const QJsonObject& json) {
    ManifestObjectReader reader(json, QStringLiteral("training"));
    TrainingSettings t;
    t.targetBatchSize = reader.integer("target_batch_size", t.targetBatchSize);
    t.sequenceLength = reader.integer("sequence_length", t.sequenceLength);
    t.mlmProbability = reader.number("mlm_probability", t.mlmProbability);
    if (const auto documents = reader.optionalString("documents")) {
        const auto layout = text::CorpusReaderOptions::documentsFromName(*documents);
        if (!layout)
            refuseManifest(
                QStringLiteral("training.documents must be \"lines\" or \"paragraphs\", got \"%1\"")
                    .arg(*documents));
        t.documents = *layout;
    }
    t.lamb.learningRate = reader.number("lr", t.lamb.learningRate);
    if (json.contains("betas")) {
        const QJsonArray betas = reader.array("betas");
        if (betas.size() != 2)
            refuseManifest(
                QStringLiteral("training.betas must be an array of two numbers [beta1, beta2], got ") +
                ManifestObjectReader::describe(betas));
        t.lamb.beta1 = ManifestObjectReader::toNumber(betas.at(0), "training.betas[0]");
        t.lamb.beta2 = ManifestObjectReader::toNumber(betas.at(1), "training.betas[1]");
    }
    t.lamb.eps = reader.number("eps", t.lamb.eps);
    t.lamb.weightDecay = reader.number("weight_decay", t.lamb.weightDecay);
    t.lamb.clampValue = reader.number("clamp_value", t.lamb.clampValue);
    t.lamb.debias = reader.boolean("debias", t.lamb.debias);
    t.warmupSteps = reader.integer("warmup_steps", t.warmupSteps);
    t.totalSteps = reader.integer("total_steps", t.totalSteps);
    t.clipNorm = reader.number("clip_norm", t.clipNorm);
    t.maxEpochs = reader.integer("max_epochs", t.totalSteps);
    t.parameterAveragingEvery = reader.integer("parameter_averaging_every", t.parameterAveragingEvery);
    t.delayedUpdates = reader.boolean("delayed_updates", t.delayedUpdates);
    if (const auto wire = reader.optionalString("wire_dtype")) {
        const auto dtype = TrainingSettings::wireDtypeFromName(*wire);
        if (!dtype)
            refuseManifest(
                QStringLiteral("training.wire_dtype must be \"fp16\" or \"int8\", got \"%1\"").arg(*wire));
        t.wireDtype = *dtype;
    }
    if (const auto rule = reader.optionalString("aggregation")) {
        const auto aggregation = TrainingSettings::aggregationFromName(*rule);
        if (!aggregation)
            refuseManifest(
                QStringLiteral("training.aggregation must be \"mean\" or \"centered_clip\", got \"%1\"")
                    .arg(*rule));
        t.aggregation = *aggregation;
    }
    t.centeredClipTauFactor = reader.number("centered_clip_tau_factor", t.centeredClipTauFactor);
    t.centeredClipIterations = reader.integer("centered_clip_iterations", t.centeredClipIterations);
    reader.finish();
    return t;
}

QJsonObject trainingToJson(const TrainingSettings& t) {
    QJsonObject json{
        {"target_batch_size", qint64(t.targetBatchSize)},
        {"sequence_length", qint64(t.sequenceLength)},
        {"mlm_probability", t.mlmProbability},
        {"documents", text::CorpusReaderOptions::documentsName(t.documents)},
        {"lr", t.lamb.learningRate},
        {"betas", QJsonArray{t.lamb.beta1, t.lamb.beta2}},
        {"eps", t.lamb.eps},
        {"weight_decay", t.lamb.weightDecay},
        {"clamp_value", t.lamb.clampValue},
        {"debias", t.lamb.debias},
        {"warmup_steps", qint64(t.warmupSteps)},
        {"total_steps", qint64(t.totalSteps)},
        {"clip_norm", t.clipNorm},
        {"max_epochs", qint64(t.maxEpochs)},
        {"parameter_averaging_every", qint64(t.parameterAveragingEvery)},
        {"wire_dtype", TrainingSettings::wireDtypeName(t.wireDtype)},
        {"aggregation", TrainingSettings::aggregationName(t.aggregation)},
        {"centered_clip_tau_factor", t.centeredClipTauFactor},
        {"centered_clip_iterations", qint64(t.centeredClipIterations)},
    };
    // Written only when asked for: the runs made before it keep their canonical bytes, hence their ids and
    // their organisers' signatures.
    if (t.delayedUpdates)
        json["delayed_updates"] = true;
    return json;
}

std::vector<DataShard> dataFromJson(const QJsonArray& json) {
    std::vector<DataShard> data;
    for (qsizetype i = 0; i < json.size(); ++i) {
        const QString path = QStringLiteral("data[%1]").arg(i);
        ManifestObjectReader reader(ManifestObjectReader::toObject(json.at(i), path), path);
        DataShard shard;
        shard.urls = reader.stringArray("urls");
        shard.sha256 = reader.string("sha256");
        shard.bytes = ManifestObjectReader::toInteger(reader.required("bytes"), path + ".bytes");
        shard.weight = reader.number("weight", 1.0);
        reader.finish();
        data.push_back(shard);
    }
    return data;
}

QJsonArray dataToJson(const std::vector<DataShard>& data) {
    QJsonArray json;
    for (const DataShard& shard : data) {
        QJsonObject entry{{"urls", QJsonArray::fromStringList(shard.urls)},
                          {"sha256", shard.sha256},
                          {"bytes", qint64(shard.bytes)}};
        // Written only when it says something: manifests without weights keep their bytes (and signatures).
        if (shard.weight != 1.0)
            entry["weight"] = shard.weight;
        json.append(entry);
    }
    return json;
}

void requireSha256(const QString& field, const QString& value) {
    if (!ManifestSyntax::isSha256Hex(value))
        refuseManifest(QStringLiteral("%1 must be 64 lowercase hexadecimal digits (a SHA-256), got \"%2\"")
                           .arg(field, value));
}

// A shard or coordinator listed twice would be trained on twice, or dialled twice: always a mistake.
void requireDistinct(const QStringList& values, const QString& name) {
    for (qsizetype i = 1; i < values.size(); ++i) {
        const qsizetype first = values.indexOf(values.at(i));
        if (first < i)
            refuseManifest(
                QStringLiteral("%1 repeats %2 (\"%3\")").arg(name.arg(i), name.arg(first), values.at(i)));
    }
}

void validateTraining(const TrainingSettings& t, const model::AlbertConfig& model) {
    requireInteger("training.target_batch_size", t.targetBatchSize, 1, kMaxCount);
    // [CLS] A [SEP] B [SEP] needs room for two segments of one token each.
    requireInteger("training.sequence_length", t.sequenceLength, 5, model.maxPositionEmbeddings);
    requireNumber("training.mlm_probability", t.mlmProbability, t.mlmProbability > 0 && t.mlmProbability < 1,
                  "in (0, 1)");
    const optim::LambOptions& l = t.lamb;
    requireNumber("training.lr", l.learningRate, l.learningRate > 0, "above 0");
    requireNumber("training.betas[0]", l.beta1, l.beta1 >= 0 && l.beta1 < 1, "in [0, 1)");
    requireNumber("training.betas[1]", l.beta2, l.beta2 >= 0 && l.beta2 < 1, "in [0, 1)");
    requireNumber("training.eps", l.eps, l.eps >= 0, "of at least 0");
    requireNumber("training.weight_decay", l.weightDecay, l.weightDecay >= 0, "of at least 0");
    requireNumber("training.clamp_value", l.clampValue, l.clampValue > 0, "above 0");
    if (l.adam)
        refuseManifest(
            QStringLiteral("training: LAMB's adam switch (trust ratio 1) is for comparisons, not for runs"));
    requireInteger("training.total_steps", t.totalSteps, 1, kMaxCount);
    requireInteger("training.warmup_steps", t.warmupSteps, 0, t.totalSteps);
    requireNumber("training.clip_norm", t.clipNorm, t.clipNorm > 0, "above 0");
    // Past total_steps the learning rate is 0: epochs there would move no weight.
    requireInteger("training.max_epochs", t.maxEpochs, 1, t.totalSteps);
    requireInteger("training.parameter_averaging_every", t.parameterAveragingEvery, 1, kMaxCount);
    requireNumber("training.centered_clip_tau_factor", t.centeredClipTauFactor,
                  t.centeredClipTauFactor > 0 && t.centeredClipTauFactor <= 1000, "in (0, 1000]");
    requireInteger("training.centered_clip_iterations", t.centeredClipIterations, 1, 1000);
}

void validateTokenizer(const TokenizerReference& tokenizer) {
    if (tokenizer.path.isEmpty() == tokenizer.url.isEmpty())
        refuseManifest(QStringLiteral("tokenizer needs exactly one of \"path\" and \"url\""));
    if (!tokenizer.path.isEmpty() && !QDir::isAbsolutePath(tokenizer.path))
        refuseManifest(
            QStringLiteral("tokenizer.path must be an absolute path, got \"%1\"").arg(tokenizer.path));
    if (!tokenizer.url.isEmpty() && !ManifestSyntax::isRemoteUrl(tokenizer.url))
        refuseManifest(QStringLiteral("tokenizer.url must be %1, got \"%2\"")
                           .arg(ManifestSyntax::remoteUrlRule(), tokenizer.url));
    requireSha256("tokenizer.sha256", tokenizer.sha256);
    if (!tokenizer.url.isEmpty())
        requireInteger("tokenizer.bytes", tokenizer.bytes, 1, kMaxTokenizerBytes);
    else if (tokenizer.bytes != 0)
        refuseManifest(
            QStringLiteral("tokenizer.bytes goes with tokenizer.url (a local file is checked by its hash)"));
}

void validateData(const std::vector<DataShard>& data) {
    if (data.empty())
        refuseManifest(QStringLiteral("data must list at least one shard"));
    QStringList urls;
    QStringList hashes;
    for (std::size_t i = 0; i < data.size(); ++i) {
        const QString path = QStringLiteral("data[%1]").arg(i);
        if (data[i].urls.isEmpty() || data[i].urls.size() > kMaxMirrors)
            refuseManifest(QStringLiteral("%1.urls must list 1 to %2 places of the shard, got %3")
                               .arg(path)
                               .arg(kMaxMirrors)
                               .arg(data[i].urls.size()));
        for (qsizetype m = 0; m < data[i].urls.size(); ++m)
            if (!ManifestSyntax::isShardUrl(data[i].urls.at(m)))
                refuseManifest(QStringLiteral("%1.urls[%2] must be %3, got \"%4\"")
                                   .arg(path)
                                   .arg(m)
                                   .arg(ManifestSyntax::shardUrlRule(), data[i].urls.at(m)));
        requireSha256(path + ".sha256", data[i].sha256);
        requireInteger(path + ".bytes", data[i].bytes, 0, kMaxBytes);
        requireNumber(path + ".weight", data[i].weight, data[i].weight > 0.0 && data[i].weight <= 1000.0,
                      "in (0, 1000]");
        urls.append(data[i].urls);
        hashes.append(data[i].sha256);
    }
    // A place listed twice, or the same bytes listed as two shards, would be trained on twice: always a
    // mistake (and the cache knows a shard by its hash).
    requireDistinct(urls, QStringLiteral("data URL #%1"));
    requireDistinct(hashes, QStringLiteral("data[%1].sha256"));
}

void validateCoordinators(const QStringList& coordinators) {
    if (coordinators.isEmpty())
        refuseManifest(QStringLiteral("coordinators must list at least one HOST:PORT address"));
    for (qsizetype i = 0; i < coordinators.size(); ++i) {
        if (!ManifestSyntax::isHostPort(coordinators.at(i)))
            refuseManifest(QStringLiteral("coordinators[%1] must be %2, got \"%3\"")
                               .arg(i)
                               .arg(ManifestSyntax::hostPortRule(), coordinators.at(i)));
    }
    requireDistinct(coordinators, QStringLiteral("coordinators[%1]"));
}

} // namespace

RunManifest RunManifest::fromJson(const QJsonObject& json) {
    ManifestObjectReader reader(json, QString());
    const QString format = reader.string("format");
    if (format != QLatin1String(kFormat))
        refuseManifest(
            QStringLiteral("format must be \"%1\" (the manifest format this Sahaj reads), got \"%2\"")
                .arg(QLatin1String(kFormat), format));
    RunManifest manifest;
    manifest.runId = reader.string("run_id");
    manifest.model = modelFromJson(reader.required("model"));
    manifest.tokenizer = tokenizerFromJson(reader.object("tokenizer"));
    if (const auto training = reader.optionalObject("training"))
        manifest.training = trainingFromJson(*training);
    manifest.data = dataFromJson(reader.array("data"));
    manifest.coordinators = reader.stringArray("coordinators");
    if (const auto organiser = reader.optionalString("organiser"))
        manifest.organiser = *organiser;
    if (const auto key = reader.optionalString("auth_curve_key"))
        manifest.authCurveKey = *key;
    if (const auto endpoint = reader.optionalString("auth_endpoint"))
        manifest.authEndpoint = *endpoint;
    reader.finish();
    manifest.validate();
    return manifest;
}

RunManifest RunManifest::loadFile(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        throw std::runtime_error(
            QStringLiteral("cannot open run manifest '%1': %2").arg(path, file.errorString()).toStdString());
    const QByteArray bytes = file.read(kMaxManifestBytes + 1);
    if (file.error() != QFileDevice::NoError)
        throw std::runtime_error(
            QStringLiteral("cannot read run manifest '%1': %2").arg(path, file.errorString()).toStdString());
    return fromBytes(bytes, path);
}

RunManifest RunManifest::fromBytes(const QByteArray& bytes, const QString& origin) {
    if (bytes.size() > kMaxManifestBytes)
        throw std::invalid_argument(QStringLiteral("'%1' is larger than the %2 bytes a run manifest may have")
                                        .arg(origin)
                                        .arg(kMaxManifestBytes)
                                        .toStdString());
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(bytes, &error);
    if (error.error != QJsonParseError::NoError)
        throw std::invalid_argument(QStringLiteral("run manifest '%1' is not valid JSON: %2 at byte %3")
                                        .arg(origin, error.errorString())
                                        .arg(error.offset)
                                        .toStdString());
    if (!document.isObject())
        throw std::invalid_argument(
            QStringLiteral("run manifest '%1' must be a JSON object").arg(origin).toStdString());
    try {
        return fromJson(document.object());
    } catch (const std::invalid_argument& e) {
        throw std::invalid_argument(
            QStringLiteral("run manifest '%1': %2").arg(origin, QString::fromUtf8(e.what())).toStdString());
    }
}

QJsonObject RunManifest::toJson() const {
    validate();
    QJsonArray coordinatorList;
    for (const QString& coordinator : coordinators)
        coordinatorList.append(coordinator);
    QJsonObject json{
        {"format", QLatin1String(kFormat)},     {"run_id", runId},
        {"model", modelToJson(model)},          {"tokenizer", tokenizerToJson(tokenizer)},
        {"training", trainingToJson(training)}, {"data", dataToJson(data)},
        {"coordinators", coordinatorList},
    };
    if (!organiser.isEmpty())
        json.insert("organiser", organiser);
    if (!authCurveKey.isEmpty())
        json.insert("auth_curve_key", authCurveKey);
    if (!authEndpoint.isEmpty())
        json.insert("auth_endpoint", authEndpoint);
    return json;
}

void RunManifest::saveFile(const QString& path) const {
    const QByteArray bytes = QJsonDocument(toJson()).toJson(QJsonDocument::Indented);
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit())
        throw std::runtime_error(
            QStringLiteral("cannot write run manifest '%1': %2").arg(path, file.errorString()).toStdString());
}

QByteArray RunManifest::canonicalBytes() const {
    // QJsonObject keeps its keys sorted, and Qt writes numbers in their shortest round-trip form.
    return QJsonDocument(toJson()).toJson(QJsonDocument::Compact);
}

std::vector<DataShard> RunManifest::shardsFromJson(const QJsonArray& json) {
    std::vector<DataShard> shards = dataFromJson(json);
    validateData(shards);
    return shards;
}

QJsonArray RunManifest::shardsToJson(const std::vector<DataShard>& shards) {
    return dataToJson(shards);
}

QString RunManifest::sha256Hex() const {
    return QString::fromLatin1(
        QCryptographicHash::hash(canonicalBytes(), QCryptographicHash::Sha256).toHex());
}

void RunManifest::validate() const {
    if (!ManifestSyntax::isRunId(runId))
        refuseManifest(
            QStringLiteral("run_id must be %1, got \"%2\"").arg(ManifestSyntax::runIdRule(), runId));
    try {
        model.validate();
    } catch (const std::invalid_argument& e) {
        refuseManifest(QStringLiteral("model: ") + QString::fromUtf8(e.what()));
    }
    validateTokenizer(tokenizer);
    validateTraining(training, model);
    validateData(data);
    validateCoordinators(coordinators);
    // A 32-byte key is written like a SHA-256: 64 lowercase hex digits.
    if (!organiser.isEmpty() && !ManifestSyntax::isSha256Hex(organiser))
        refuseManifest(
            QStringLiteral("organiser must be an Ed25519 public key in 64 lowercase hexadecimal digits, "
                           "got \"%1\"")
                .arg(organiser.left(80)));
    if (!authCurveKey.isEmpty() && !ManifestSyntax::isSha256Hex(authCurveKey))
        refuseManifest(
            QStringLiteral("auth_curve_key must be a CURVE public key in 64 lowercase hexadecimal digits, "
                           "got \"%1\"")
                .arg(authCurveKey.left(80)));
    if (!authEndpoint.isEmpty() && !ManifestSyntax::isHostPort(authEndpoint))
        refuseManifest(QStringLiteral("auth_endpoint must be %1, got \"%2\"")
                           .arg(ManifestSyntax::hostPortRule(), authEndpoint));
    if (!authEndpoint.isEmpty() && authCurveKey.isEmpty())
        refuseManifest(QStringLiteral(
            "auth_endpoint needs auth_curve_key: a volunteer must know whom it asks for a token"));
}

} // namespace sahaj::run
