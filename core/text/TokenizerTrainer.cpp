#include "core/text/TokenizerTrainer.h"

#include "core/text/PortableRandom.h"
#include "core/text/SentencePieceModelProto.h"
#include "core/text/SentencePieceTrainerProcess.h"
#include "core/text/Tokenizer.h"
#include "core/text/TokenizerJsonWriter.h"

#include <QFile>
#include <QRegularExpression>
#include <QStringList>
#include <QTemporaryDir>

#include <algorithm>
#include <charconv>
#include <stdexcept>
#include <string>
#include <thread>
#include <unordered_map>
#include <utility>
#include <vector>

namespace sahaj::text {

namespace {

constexpr int kSpecialCount = 5;
constexpr int kMaxVocab = 1000000;

// Writes one "pre-token<TAB>count" line per distinct pre-token (sentencepiece's input_format=tsv):
// every pre-token is a separate training "sentence", so no piece can span two pre-tokens, exactly as the
// Hugging Face Unigram model never matches across them.
void writeCounts(const QString& path, const std::vector<std::pair<std::string, qint64>>& counts) {
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        throw std::runtime_error(QStringLiteral("cannot write the trainer input %1: %2")
                                     .arg(path, file.errorString())
                                     .toStdString());
    std::string line;
    for (const auto& [preToken, count] : counts) {
        line.assign(preToken);
        line += '\t';
        line += std::to_string(count);
        line += '\n';
        if (file.write(line.data(), static_cast<qint64>(line.size())) != static_cast<qint64>(line.size()))
            throw std::runtime_error(QStringLiteral("cannot write the trainer input %1: %2")
                                         .arg(path, file.errorString())
                                         .toStdString());
    }
}

// Reads the documents to train on: all of them, or a seeded reservoir sample of `limit`.
QStringList readDocuments(const QString& path, const TokenizerTrainerOptions& options) {
    CorpusReader reader(path, options.corpus);
    QStringList documents;
    PortableRandom random(PortableRandom::deriveSeed(options.seed, {0x53414d504c45ULL})); // "SAMPLE"
    qint64 seen = 0;
    while (std::optional<QString> document = reader.next()) {
        ++seen;
        if (options.maxDocuments <= 0 || documents.size() < options.maxDocuments) {
            documents.push_back(std::move(*document));
            continue;
        }
        const auto slot = static_cast<qint64>(random.below(static_cast<std::uint64_t>(seen)));
        if (slot < options.maxDocuments)
            documents[slot] = std::move(*document);
    }
    return documents;
}

// Shortest text of the float sentencepiece stores, as a double: the JSON then reads "-8.123457"
// rather than the float's full binary expansion; both tokenizers parse it to the same double.
double shortestScore(float score) {
    char buffer[32];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, score);
    return std::stod(std::string(buffer, result.ptr));
}

} // namespace

TokenizerTrainer::TokenizerTrainer(TokenizerTrainerOptions options) : options_(std::move(options)) {
    if (options_.vocabSize <= kSpecialCount || options_.vocabSize > kMaxVocab)
        throw std::invalid_argument("vocabulary size must be in [" + std::to_string(kSpecialCount + 1) +
                                    ", " + std::to_string(kMaxVocab) + "], got " +
                                    std::to_string(options_.vocabSize));
    if (!(options_.characterCoverage >= 0.98 && options_.characterCoverage <= 1.0))
        throw std::invalid_argument("character coverage must be in [0.98, 1] (sentencepiece's range)");
    if (options_.threads < 0 || options_.threads > 128)
        throw std::invalid_argument("trainer threads must be in [0, 128]");
}

QByteArray TokenizerTrainer::train(const QString& corpusPath) {
    summary_ = {};
    const QStringList documents = readDocuments(corpusPath, options_);
    summary_.documents = documents.size();

    const Tokenizer pipeline = Tokenizer::fromJson(TokenizerJsonWriter::pipelineOnly(),
                                                   QStringLiteral("embedded sahajBERT pipeline"));
    std::unordered_map<std::string, qint64> counts;
    for (const QString& document : documents) {
        for (const QString& preToken : pipeline.preTokenize(pipeline.normalize(document))) {
            if (preToken.isEmpty())
                continue;
            ++summary_.preTokens;
            ++counts[preToken.toStdString()];
        }
    }
    if (counts.empty())
        throw std::runtime_error(
            QStringLiteral("corpus %1 has no text to train on").arg(corpusPath).toStdString());

    // A fixed order (most frequent first, then by bytes) keeps training reproducible.
    std::vector<std::pair<std::string, qint64>> sorted(counts.begin(), counts.end());
    std::sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) {
        return a.second != b.second ? a.second > b.second : a.first < b.first;
    });
    summary_.distinctPreTokens = static_cast<qint64>(sorted.size());

    // Pre-tokens longer than sentencepiece's line limit (2048 bytes) would be skipped by it anyway;
    // a tab would break the TSV format (the Nmt normaliser maps tabs to spaces, so none should occur).
    std::erase_if(sorted, [](const auto& entry) {
        return entry.first.size() > 2000 || entry.first.find('\t') != std::string::npos;
    });
    QTemporaryDir work;
    if (!work.isValid())
        throw std::runtime_error("cannot create a temporary folder for tokenizer training: " +
                                 work.errorString().toStdString());
    const QString input = work.filePath(QStringLiteral("pretokens.tsv"));
    writeCounts(input, sorted);

    const int threads = options_.threads > 0
                            ? options_.threads
                            : std::clamp(static_cast<int>(std::thread::hardware_concurrency()), 1, 128);
    // Text arrives normalised and pre-tokenised by the sahajBERT pipeline, so sentencepiece must not
    // change or re-split it: identity normalisation, no dummy "▁" prefix (Metaspace already put one
    // where a word starts), no whitespace clean-up, and no splitting by script, number or digit
    // (Digits/Punctuation already decided the boundaries). Ids 0-4 are the sahajBERT specials.
    const QString modelPrefix = work.filePath(QStringLiteral("unigram"));
    const QStringList arguments = {
        "--model_type=unigram",
        QStringLiteral("--vocab_size=%1").arg(options_.vocabSize),
        "--input=" + input,
        "--input_format=tsv",
        "--model_prefix=" + modelPrefix,
        "--normalization_rule_name=identity",
        "--add_dummy_prefix=false",
        "--remove_extra_whitespaces=false",
        "--split_by_whitespace=true",
        "--split_by_unicode_script=false",
        "--split_by_number=false",
        "--split_digits=false",
        "--treat_whitespace_as_suffix=false",
        "--allow_whitespace_only_pieces=false",
        "--byte_fallback=false",
        QStringLiteral("--character_coverage=%1").arg(options_.characterCoverage, 0, 'g', 17),
        "--hard_vocab_limit=true",
        "--pad_id=0",
        "--unk_id=1",
        "--bos_id=-1",
        "--eos_id=-1",
        "--pad_piece=<pad>",
        "--unk_piece=<unk>",
        "--control_symbols=[CLS],[SEP],[MASK]",
        QStringLiteral("--num_threads=%1").arg(threads),
        QStringLiteral("--random_seed=%1")
            .arg(static_cast<unsigned int>(options_.seed ^ (options_.seed >> 32))),
        "--max_sentence_length=4192",
        "--minloglevel=1",
    };
    const SentencePieceTrainerProcess::Result result = SentencePieceTrainerProcess::run(arguments);
    if (!result.ok) {
        const QString& message = result.message;
        QString hint;
        if (message.contains(QLatin1String("smaller than required_chars")))
            hint = QStringLiteral("vocabulary size %1 is too small for the corpus's alphabet")
                       .arg(options_.vocabSize);
        else if (message.contains(QLatin1String("too high")) ||
                 message.contains(QLatin1String("too large"))) {
            // sentencepiece says how far it got: "... Please set it to a value <= 1061."
            const QRegularExpressionMatch limit =
                QRegularExpression(QStringLiteral("<= *(\\d+)")).match(message);
            hint = QStringLiteral("vocabulary size %1 is too large for this corpus").arg(options_.vocabSize);
            if (limit.hasMatch())
                hint += QStringLiteral(" (at most %1 here)").arg(limit.captured(1));
        } else
            hint = QStringLiteral("tokenizer training failed");
        throw std::runtime_error(QStringLiteral("%1 (sentencepiece: %2)").arg(hint, message).toStdString());
    }

    QFile modelFile(modelPrefix + ".model");
    if (!modelFile.open(QIODevice::ReadOnly))
        throw std::runtime_error("sentencepiece wrote no model: " + modelFile.errorString().toStdString());
    const QByteArray model = modelFile.readAll();
    std::vector<TokenizerJsonWriter::Piece> pieces;
    for (const SentencePieceModelProto::Piece& piece : SentencePieceModelProto::pieces(
             std::string(model.constData(), static_cast<std::size_t>(model.size())))) {
        const bool special = piece.type == SentencePieceModelProto::PieceType::Control ||
                             piece.type == SentencePieceModelProto::PieceType::Unknown;
        pieces.emplace_back(piece.piece, special ? 0.0 : shortestScore(piece.score));
    }
    // With the flags above sentencepiece numbers <pad>, <unk> and the control symbols first, in the
    // order the sahajBERT vocabulary has them.
    if (pieces.size() < static_cast<std::size_t>(kSpecialCount) || pieces[0].first != "<pad>" ||
        pieces[1].first != "<unk>" || pieces[2].first != "[CLS]" || pieces[3].first != "[SEP]" ||
        pieces[4].first != "[MASK]")
        throw std::runtime_error("sentencepiece's vocabulary does not start with the five special tokens");
    summary_.vocabSize = static_cast<int>(pieces.size());
    return TokenizerJsonWriter::write(pieces);
}

} // namespace sahaj::text
