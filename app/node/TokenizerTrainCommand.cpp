#include "app/node/TokenizerTrainCommand.h"

#include "app/node/CommandLine.h"
#include "app/node/CorpusDocumentsOption.h"
#include "app/node/UsageError.h"
#include "core/text/TokenizerTrainer.h"

#include <QDir>
#include <QFileInfo>
#include <QSaveFile>
#include <QTextStream>

#include <stdexcept>

namespace sahaj::node {

QString TokenizerTrainCommand::description() const {
    return QStringLiteral(
        "Train a Unigram tokenizer with the sahajBERT normalisation and pre-tokenisation on a corpus\n"
        "(plain text, one document per line, or JSONL with a \"text\" field) and write DIR/tokenizer.json\n"
        "in Hugging Face format: <pad>=0, <unk>=1, [CLS]=2, [SEP]=3, [MASK]=4, then the learned pieces.");
}

void TokenizerTrainCommand::addOptions(QCommandLineParser& parser) const {
    parser.addOption(
        {"corpus", "Corpus file (.txt: a document per line; .jsonl: a \"text\" field per line).", "PATH"});
    parser.addOption({"vocab", "Vocabulary size, special tokens included.", "N"});
    parser.addOption({"out", "Output folder; tokenizer.json is written there.", "DIR"});
    parser.addOption({"seed", "Seed for sampling --max-lines and for the trainer (default 0).", "S"});
    parser.addOption(
        {"max-lines", "Train on a seeded random sample of this many documents (default: all).", "M"});
    parser.addOption({"threads", "Trainer threads (default: one per core; the result depends on it).", "T"});
    CorpusDocumentsOption::add(parser);
}

int TokenizerTrainCommand::run(const QCommandLineParser& parser) {
    const QString corpus = CommandLine::requiredValue(parser, "corpus");
    if (!parser.isSet("vocab"))
        throw UsageError("missing required option --vocab");
    const QString out = CommandLine::requiredValue(parser, "out");

    text::TokenizerTrainerOptions options;
    options.vocabSize = static_cast<int>(CommandLine::integerValue(parser, "vocab", 0, 6, 1000000));
    options.seed =
        static_cast<std::uint64_t>(CommandLine::integerValue(parser, "seed", 0, 0, 0x7fffffffffffffffLL));
    options.maxDocuments = CommandLine::integerValue(parser, "max-lines", 0, 1, 0x7fffffffffffffffLL);
    options.threads = static_cast<int>(CommandLine::integerValue(parser, "threads", 0, 1, 128));
    options.corpus.documents = CorpusDocumentsOption::value(parser, options.corpus.documents);

    if (QFileInfo(out).exists() && !QFileInfo(out).isDir())
        throw std::runtime_error(
            QStringLiteral("--out %1 exists and is not a folder").arg(out).toStdString());

    text::TokenizerTrainer trainer(options);
    const QByteArray json = trainer.train(corpus);

    if (!QDir().mkpath(out))
        throw std::runtime_error(QStringLiteral("cannot create output folder %1").arg(out).toStdString());
    const QString path = QDir(out).filePath(QStringLiteral("tokenizer.json"));
    // Written atomically: an interrupted run never leaves a truncated tokenizer.json behind.
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(json) != json.size() || !file.commit())
        throw std::runtime_error(
            QStringLiteral("cannot write %1: %2").arg(path, file.errorString()).toStdString());

    const text::TokenizerTrainingSummary& summary = trainer.summary();
    QTextStream(stdout) << "trained a Unigram vocabulary of " << summary.vocabSize << " pieces on "
                        << summary.documents << " documents (" << summary.preTokens << " pre-tokens, "
                        << summary.distinctPreTokens << " distinct)\n"
                        << "wrote " << path << "\n";
    return 0;
}

} // namespace sahaj::node
