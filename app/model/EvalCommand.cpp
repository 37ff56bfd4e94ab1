#include "app/model/EvalCommand.h"

#include "app/model/DeviceOption.h"
#include "app/node/CommandLine.h"
#include "app/node/CorpusDocumentsOption.h"
#include "app/node/TokenizerOption.h"
#include "app/node/UsageError.h"
#include "core/eval/MaskedLmCorpusSample.h"
#include "core/eval/MaskedLmEvaluator.h"
#include "core/eval/MaskedLmJsonl.h"
#include "core/eval/PretrainedModelDirectory.h"
#include "core/model/ModelCheckpoint.h"
#include "core/text/Tokenizer.h"

#include <QJsonDocument>
#include <QTextStream>

#include <limits>

namespace sahaj::node {

QString EvalCommand::description() const {
    return QStringLiteral(
        "Evaluate a pre-trained model on masked-LM + sentence-order examples and print one JSON object:\n"
        "mlm_loss (mean cross entropy over every scored position), sop_loss (mean over examples),\n"
        "mlm_accuracy, sop_accuracy, examples and scored_tokens, as Hugging Face's AlbertForPreTraining\n"
        "computes them, with the model in eval mode.\n"
        "--checkpoint takes a model folder (config.json + model.safetensors) or a train-local output "
        "folder.\n"
        "--data reads JSONL lines with input_ids, token_type_ids, attention_mask, labels (-100 where "
        "nothing\n"
        "is scored) and sentence_order_label. --corpus builds the examples from raw text instead, with the\n"
        "training pipeline (sentence packing, A/B swap, 15 % masking), deterministically from --seed: the\n"
        "first --examples examples of one pass; --write-jsonl saves them.");
}

void EvalCommand::addOptions(QCommandLineParser& parser) const {
    parser.addOptions({
        {"checkpoint", "Model folder, or a train-local output folder.", "DIR"},
        {"data", "Evaluation examples as JSONL.", "FILE"},
        {"corpus", "Raw text to build the examples from (instead of --data).", "TEXT"},
        {"seed", "With --corpus: seed of the order, the A/B swaps and the masks (default: 0).", "S"},
        {"examples", "With --corpus: how many examples at most (default: 1000).", "N"},
        {"seq", "With --corpus: sequence length in tokens (default: 128).", "L"},
        {"write-jsonl", "With --corpus: also save the examples as JSONL (for --data later).", "FILE"},
        {"batch", "Examples per forward pass (default: 32).", "B"},
    });
    CorpusDocumentsOption::add(parser);
    TokenizerOption::add(parser,
                         "With --corpus: tokenizer.json (default: the model's, else the sahajBERT one).");
    DeviceOption::add(parser);
}

int EvalCommand::run(const QCommandLineParser& parser) {
    constexpr long long kMaxCount = std::numeric_limits<int>::max();
    const auto located = eval::PretrainedModelDirectory::locate(
        CommandLine::requiredValue(parser, "checkpoint").toStdString());
    const bool fromCorpus = parser.isSet("corpus");
    if (fromCorpus == parser.isSet("data"))
        throw UsageError("give either --data FILE.jsonl or --corpus TEXT");
    for (const char* option : {"seed", "examples", "seq", "write-jsonl", "documents", "tokenizer"})
        if (!fromCorpus && parser.isSet(option))
            throw UsageError(std::string("--") + option + " applies to --corpus only");
    const long long batch = CommandLine::integerValue(parser, "batch", 32, 1, 1 << 16);
    const c10::Device device(DeviceOption::value(parser));

    model::AlbertForPreTraining model = model::ModelCheckpoint::load(located.model);
    std::vector<eval::MaskedLmRecord> records;
    std::string origin = "the corpus sample"; // names the examples in errors
    if (fromCorpus) {
        const QString corpus = CommandLine::existingFile("corpus", parser.value("corpus"));
        const long long seq =
            CommandLine::integerValue(parser, "seq", 128, 5, model->config().maxPositionEmbeddings);
        const long long count = CommandLine::integerValue(parser, "examples", 1000, 1, kMaxCount);
        const long long seed =
            CommandLine::integerValue(parser, "seed", 0, 0, std::numeric_limits<long long>::max());
        const text::Tokenizer tokenizer = TokenizerOption::loadForModel(
            TokenizerOption::pathForModel(parser, located.tokenizer), model->config().vocabSize);
        records = eval::MaskedLmCorpusSample::build(
            corpus, tokenizer, static_cast<int>(seq), static_cast<std::uint64_t>(seed), count,
            CorpusDocumentsOption::value(parser, text::PlainTextDocuments::LinePerDocument));
        if (parser.isSet("write-jsonl"))
            eval::MaskedLmJsonl::write(parser.value("write-jsonl"), records);
    } else {
        const QString data = CommandLine::existingFile("data", parser.value("data"));
        records = eval::MaskedLmJsonl::read(data);
        origin = data.toStdString();
    }
    model->to(device);
    const eval::MaskedLmScores scores =
        eval::MaskedLmEvaluator::evaluate(model, records, batch, device, origin);
    QTextStream(stdout) << QJsonDocument(scores.toJson()).toJson(QJsonDocument::Compact) << "\n";
    return 0;
}

} // namespace sahaj::node
