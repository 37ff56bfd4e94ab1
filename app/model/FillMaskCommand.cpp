#include "app/model/FillMaskCommand.h"

#include "app/model/DeviceOption.h"
#include "app/node/CommandLine.h"
#include "app/node/TokenizerOption.h"
#include "app/node/UsageError.h"
#include "core/eval/FillMask.h"
#include "core/eval/PretrainedModelDirectory.h"
#include "core/model/ModelCheckpoint.h"
#include "core/text/Tokenizer.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTextStream>

namespace sahaj::node {

QString FillMaskCommand::description() const {
    return QStringLiteral(
        "Print the --top most likely tokens, with their probabilities, for each [MASK] of each TEXT\n"
        "(softmax over the vocabulary at that position; every [MASK] is predicted from the same pass).\n"
        "--json prints one JSON object per text: {text, masks: [{position, predictions: [{token_id, token,\n"
        "token_str, score, sequence}]}]}, the fields of Hugging Face's fill-mask pipeline.");
}

void FillMaskCommand::addOptions(QCommandLineParser& parser) const {
    parser.addOptions({
        {"checkpoint", "Model folder, or a train-local output folder.", "DIR"},
        {"top", "Candidates per [MASK] (default: 5).", "K"},
        {"json", "Print JSON instead of text."},
    });
    TokenizerOption::add(parser, "tokenizer.json (default: the model's, else the sahajBERT one).");
    DeviceOption::add(parser);
    parser.addPositionalArgument("TEXT", "Text with one or more [MASK] tokens.", "TEXT...");
}

int FillMaskCommand::run(const QCommandLineParser& parser) {
    const QStringList texts = parser.positionalArguments();
    if (texts.isEmpty())
        throw UsageError("give a text with [MASK], e.g. \"আমি [MASK] গান গাই।\"");
    const auto located = eval::PretrainedModelDirectory::locate(
        CommandLine::requiredValue(parser, "checkpoint").toStdString());
    const int top = static_cast<int>(CommandLine::integerValue(parser, "top", 5, 1, 1000));
    const c10::Device device(DeviceOption::value(parser));
    model::AlbertForPreTraining model = model::ModelCheckpoint::load(located.model);
    const text::Tokenizer tokenizer = TokenizerOption::loadForModel(
        TokenizerOption::pathForModel(parser, located.tokenizer), model->config().vocabSize);
    model->to(device);

    QTextStream out(stdout);
    for (const QString& text : texts) {
        std::vector<eval::FillMaskPrediction> predictions;
        try {
            predictions = eval::FillMask::predict(model, tokenizer, text, top, device);
        } catch (const std::invalid_argument& e) {
            throw UsageError(std::string(e.what()) + ": \"" + text.toStdString() + "\"");
        }
        if (parser.isSet("json")) {
            out << QJsonDocument(eval::FillMask::toJson(text, predictions)).toJson(QJsonDocument::Compact)
                << "\n";
            continue;
        }
        out << text << "\n";
        for (std::size_t m = 0; m < predictions.size(); ++m) {
            out << "  [MASK] " << m + 1 << " (token " << predictions[m].position << "):\n";
            for (const eval::FillMaskCandidate& candidate : predictions[m].candidates)
                out << "    " << QString::number(candidate.probability, 'f', 4) << "  "
                    << candidate.text.leftJustified(16) << " " << candidate.token << " (id "
                    << candidate.tokenId << ")\n";
        }
    }
    return 0;
}

} // namespace sahaj::node
