#include "app/node/RunInitCommand.h"

#include "app/node/CommandLine.h"
#include "app/node/CorpusDocumentsOption.h"
#include "app/node/ShardCommand.h"
#include "app/node/TokenizerOption.h"
#include "app/node/UrlPrefixOption.h"
#include "app/node/UsageError.h"
#include "core/run/JoinFile.h"
#include "core/run/ManifestSyntax.h"
#include "core/run/RunManifest.h"
#include "core/run/ShardVerifier.h"
#include "core/security/CurveKeyPair.h"
#include "core/security/PeerIdentity.h"
#include "core/text/Tokenizer.h"

#include <QDir>
#include <QFileInfo>
#include <QTextStream>
#include <QUrl>

#include <limits>
#include <stdexcept>

namespace sahaj::node {

namespace {

// The demo's defaults: a small model on the demo corpus, with one coordinator on this machine.
const QString kDefaultRunId = QStringLiteral("demo");
const QString kDefaultConfig = QStringLiteral("small");
const QString kDefaultCorpus = QStringLiteral("build/data/demo-corpus/train.txt");
const QString kDefaultCoordinator = QStringLiteral("127.0.0.1:4600");
constexpr long long kDefaultTargetBatch = 64;
constexpr long long kDefaultSequenceLength = 128;
constexpr long long kMaxCount = std::numeric_limits<int>::max();

QString valueOr(const QCommandLineParser& parser, const QString& option, const QString& fallback) {
    return parser.isSet(option) ? parser.value(option) : fallback;
}

// The shard files: --corpus, or else (without --data either) the demo corpus of the working directory.
QStringList corpusPaths(const QCommandLineParser& parser) {
    QStringList paths;
    for (const QString& corpus : parser.values("corpus"))
        paths.append(CommandLine::existingFile("corpus", corpus));
    if (paths.isEmpty() && !parser.isSet("data")) {
        const QString demo = QDir::current().absoluteFilePath(kDefaultCorpus);
        if (!QFileInfo(demo).isFile())
            throw UsageError("no --corpus given, and the demo corpus '" + demo.toStdString() +
                             "' is missing: build it with scripts/demo-corpus.sh (from the repository root), "
                             "or pass --corpus FILE");
        paths.append(demo);
    }
    return paths;
}

// The tokenizer must load and fit the model's vocabulary: a manifest naming a broken tokenizer would
// fail on every volunteer's machine instead of here.
run::TokenizerReference tokenizerReference(const QCommandLineParser& parser,
                                           const model::AlbertConfig& config) {
    const QString path = QFileInfo(TokenizerOption::value(parser)).absoluteFilePath();
    const text::Tokenizer tokenizer = text::Tokenizer::fromFile(path);
    if (tokenizer.vocabSize() > config.vocabSize)
        throw std::runtime_error(
            "the tokenizer '" + path.toStdString() + "' has " + std::to_string(tokenizer.vocabSize()) +
            " tokens but the model's vocabulary has only " + std::to_string(config.vocabSize));
    return run::TokenizerReference{path, QString(), run::ShardVerifier::fileSha256Hex(path)};
}

QStringList coordinators(const QCommandLineParser& parser) {
    const QStringList given = parser.values("coordinator");
    for (const QString& address : given) {
        if (!run::ManifestSyntax::isHostPort(address))
            throw UsageError(QStringLiteral("--coordinator must be %1, got '%2'")
                                 .arg(run::ManifestSyntax::hostPortRule(), address)
                                 .toStdString());
    }
    return given.isEmpty() ? QStringList{kDefaultCoordinator} : given;
}

run::TrainingSettings trainingSettings(const QCommandLineParser& parser, const model::AlbertConfig& config) {
    run::TrainingSettings t;
    t.targetBatchSize = CommandLine::integerValue(parser, "target-batch", kDefaultTargetBatch, 1, kMaxCount);
    t.sequenceLength =
        CommandLine::integerValue(parser, "seq", kDefaultSequenceLength, 5, config.maxPositionEmbeddings);
    t.documents = CorpusDocumentsOption::value(parser, text::PlainTextDocuments::BlankLineSeparated);
    t.lamb.learningRate = CommandLine::realValue(parser, "lr", t.lamb.learningRate, 0.0, 1e3);
    if (!(t.lamb.learningRate > 0.0))
        throw UsageError("--lr must be positive");
    t.warmupSteps = CommandLine::integerValue(parser, "warmup", t.warmupSteps, 0, kMaxCount);
    t.totalSteps = CommandLine::integerValue(parser, "total-steps", t.totalSteps, 1, kMaxCount);
    if (t.warmupSteps > t.totalSteps)
        throw UsageError(
            QStringLiteral("the warmup (%1 global steps%2) must not exceed --total-steps %3")
                .arg(t.warmupSteps)
                .arg(parser.isSet("warmup") ? QString() : QStringLiteral(", the default; set --warmup"))
                .arg(t.totalSteps)
                .toStdString());
    t.maxEpochs = t.totalSteps;
    t.parameterAveragingEvery =
        CommandLine::integerValue(parser, "average-every", t.parameterAveragingEvery, 1, kMaxCount);
    t.delayedUpdates = parser.isSet("delayed-updates");
    if (parser.isSet("wire")) {
        const auto wire = run::TrainingSettings::wireDtypeFromName(parser.value("wire"));
        if (!wire)
            throw UsageError("--wire must be 'fp16' or 'int8', got '" + parser.value("wire").toStdString() +
                             "'");
        t.wireDtype = *wire;
    }
    if (parser.isSet("aggregation")) {
        const auto rule = run::TrainingSettings::aggregationFromName(parser.value("aggregation"));
        if (!rule)
            throw UsageError("--aggregation must be 'mean' or 'centered_clip', got '" +
                             parser.value("aggregation").toStdString() + "'");
        t.aggregation = *rule;
    }
    return t;
}

} // namespace

QString RunInitCommand::description() const {
    return QStringLiteral(
        "Write a run manifest (docs/run-manifest.md): the run id, the model config written out in full, the\n"
        "tokenizer and every corpus shard with their SHA-256, the training recipe and the coordinators'\n"
        "addresses; every volunteer of the run trains exactly what it says. Without options it describes\n"
        "the demo run: the small model on build/data/demo-corpus/train.txt (scripts/demo-corpus.sh) with a\n"
        "coordinator on this machine. Prints the manifest's path, its run id and its hash (the run's\n"
        "identity: two manifests with equal hashes describe the same run).");
}

void RunInitCommand::addOptions(QCommandLineParser& parser) const {
    const run::TrainingSettings recipe;
    parser.addOptions({
        {"out",
         "The manifest file to write (replaced atomically); the signed join file for volunteers goes beside "
         "it (NAME.join for NAME.json).",
         "FILE"},
        {"auth-endpoint",
         "HOST:PORT of the coordinator's token endpoint (default: the first coordinator's host at its port + "
         "1).",
         "ADDR"},
        {"organiser-key",
         "Folder of the organiser's signing key, created on first use (default: 'organiser' beside --out).",
         "DIR"},
        {"run-id", "The run's id: " + run::ManifestSyntax::runIdRule() + " (default: demo).", "ID"},
        {"config", "Model config: tiny, small or sahajbert, written out in full (default: small).", "NAME"},
        {"corpus", "A training shard; repeat for several (default: " + kDefaultCorpus + ").", "FILE"},
        {"data",
         "A data.json that sahaj-node shard wrote: its shards join the run's (with their URLs and weights); "
         "repeat for several corpora.",
         "FILE"},
        {"weight",
         "How often the matching --corpus (the first --weight the first --corpus, ...) is drawn relative to "
         "the others, in (0, 1000]: mixing corpora (default 1 each).",
         "W"},

        {"tokenizer-url",
         "Where volunteers download the tokenizer (its hash and size come from --tokenizer).", "URL"},
        {"documents",
         "How the shards' plain text is cut into documents: 'lines' or 'paragraphs' (default: paragraphs).",
         "LAYOUT"},
        {"coordinator",
         "A coordinator's HOST:PORT; repeat for several (default: " + kDefaultCoordinator + ").",
         "HOST:PORT"},
        {"target-batch",
         QStringLiteral("Samples per global step, over all peers (default: %1; sahajBERT used %2).")
             .arg(kDefaultTargetBatch)
             .arg(recipe.targetBatchSize),
         "N"},
        {"seq", QStringLiteral("Sequence length in tokens (default: %1).").arg(kDefaultSequenceLength), "L"},
        {"lr",
         QStringLiteral("Peak learning rate (default: %1).")
             .arg(recipe.lamb.learningRate, 0, 'g', QLocale::FloatingPointShortest),
         "X"},
        {"warmup", QStringLiteral("Linear warmup in global steps (default: %1).").arg(recipe.warmupSteps),
         "W"},
        {"total-steps",
         QStringLiteral("Global step where the learning rate reaches 0 and the run ends (default: %1).")
             .arg(recipe.totalSteps),
         "T"},
        {"average-every",
         QStringLiteral("Average the parameters every K global steps (default: %1).")
             .arg(recipe.parameterAveragingEvery),
         "K"},
        {"wire", "Encoding of averaged tensors on the wire: fp16 or int8 (default: fp16).", "DTYPE"},
        {"delayed-updates",
         "Average each batch's gradient while the next one computes, and apply the step one batch late "
         "(default: wait for each round)."},
        {"aggregation",
         "How aggregators combine gradients: mean, or centered_clip (robust to a minority of attackers) "
         "(default: mean).",
         "RULE"},
    });
    UrlPrefixOption::add(parser, QStringLiteral("the --corpus shards (instead of their local paths)"));
    TokenizerOption::add(parser,
                         "tokenizer.json (default: the sahajBERT tokenizer in the shared data folder).");
}

int RunInitCommand::run(const QCommandLineParser& parser) {
    run::RunManifest manifest;
    const QString outPath = QFileInfo(CommandLine::requiredValue(parser, "out")).absoluteFilePath();
    manifest.runId = valueOr(parser, "run-id", kDefaultRunId);
    if (!run::ManifestSyntax::isRunId(manifest.runId))
        throw UsageError(QStringLiteral("--run-id must be %1, got '%2'")
                             .arg(run::ManifestSyntax::runIdRule(), manifest.runId)
                             .toStdString());
    const QString configName = valueOr(parser, "config", kDefaultConfig);
    try {
        manifest.model = model::AlbertConfig::named(configName.toStdString());
    } catch (const std::invalid_argument& e) {
        throw UsageError(std::string("--config: ") + e.what());
    }
    manifest.training = trainingSettings(parser, manifest.model);
    manifest.coordinators = coordinators(parser);
    const QStringList corpora = corpusPaths(parser);
    // Now the files: loading the tokenizer and hashing a large corpus take a while.
    manifest.tokenizer = tokenizerReference(parser, manifest.model);
    const QStringList weights = parser.values("weight");
    if (!weights.isEmpty() && weights.size() != corpora.size())
        throw UsageError("--weight: give one per --corpus (" + std::to_string(corpora.size()) + "), got " +
                         std::to_string(weights.size()));
    for (qsizetype i = 0; i < corpora.size(); ++i) {
        manifest.data.push_back(run::ShardVerifier::describe(corpora[i])); // one read each: size and hash
        if (!weights.isEmpty()) {
            bool ok = false;
            manifest.data.back().weight = weights[i].toDouble(&ok);
            if (!ok)
                throw UsageError("--weight must be a number, got '" + weights[i].toStdString() + "'");
        }
    }
    if (parser.isSet("url-prefix"))
        for (run::DataShard& shard : manifest.data)
            shard.urls =
                UrlPrefixOption::places(parser, QUrl(shard.urls.front()).fileName(QUrl::FullyEncoded));
    for (const QString& path : parser.values("data"))
        for (run::DataShard& shard : ShardCommand::readData(path))
            manifest.data.push_back(std::move(shard));
    if (parser.isSet("tokenizer-url")) {
        manifest.tokenizer.url = parser.value("tokenizer-url");
        manifest.tokenizer.bytes = QFileInfo(manifest.tokenizer.path).size();
        manifest.tokenizer.path.clear();
    }
    try {
        manifest.validate(); // what the options cannot check alone: warmup within the schedule, repeats
    } catch (const std::invalid_argument& e) {
        throw UsageError(e.what());
    }
    if (!QFileInfo(outPath).dir().exists()) // before the key's folder is made beside it
        throw std::runtime_error(QStringLiteral("cannot write run manifest '%1': its folder does not exist")
                                     .arg(outPath)
                                     .toStdString());
    // The organiser's key signs the manifest (and, later, the run's access tokens): created on first use,
    // kept for every later run-init of the same organiser.
    const QString keyDir = parser.isSet("organiser-key") ? parser.value("organiser-key")
                                                         : QFileInfo(outPath).dir().filePath("organiser");
    const security::PeerIdentity organiser = security::PeerIdentity::loadOrCreate(keyDir);
    // The token endpoint's CURVE key: volunteers connect only to its holder, the coordinator started with
    // --organiser-key on this folder.
    manifest.authCurveKey =
        QString::fromLatin1(security::CurveKeyPair::loadOrCreate(keyDir).publicKey().toHex());
    if (parser.isSet("auth-endpoint"))
        manifest.authEndpoint = parser.value("auth-endpoint");
    try {
        manifest.validate();
    } catch (const std::invalid_argument& e) {
        throw UsageError(e.what());
    }
    const run::JoinFile join = run::JoinFile::sign(manifest, organiser);
    join.manifest().saveFile(outPath);
    const QString joinPath = run::JoinFile::pathBeside(outPath);
    join.saveFile(joinPath);

    qint64 bytes = 0;
    for (const run::DataShard& shard : manifest.data)
        bytes += shard.bytes;
    CommandLine::out() << "run-init: wrote " << outPath << "\n"
                       << "run_id=" << manifest.runId << " sha256=" << join.manifest().sha256Hex()
                       << " config=" << configName << " shards=" << manifest.data.size() << " bytes=" << bytes
                       << "\n"
                       << "run-init: wrote " << joinPath
                       << ", the join file for volunteers, signed by organiser " << join.manifest().organiser
                       << " (key in " << keyDir << ")\n"
                       << "join link: " << join.toLink() << "\n";
    // The link runs to a couple of thousand characters, too long for most messages: the join file's web
    // address is a short one that volunteers join from alike (fetch::JoinSource).
    const QString joinName = QFileInfo(joinPath).fileName();
    const QString where = parser.isSet("url-prefix")
                              ? QStringLiteral(" (under --url-prefix: %1)")
                                    .arg(UrlPrefixOption::places(parser, joinName).front())
                              : QString();
    CommandLine::out()
        << "run-init: or share a short address instead of the link: put " << joinPath
        << " on any web server and give volunteers its https:// address" << where
        << "; they join from it as from the link (sahaj-volunteer's Join, sahaj-node volunteer "
           "--join URL)\n";
    return 0;
}

} // namespace sahaj::node
