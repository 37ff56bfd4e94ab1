#include "core/text/PretrainingStream.h"

#include "core/text/PortableRandom.h"
#include "core/text/SentenceSplitter.h"

#include <stdexcept>
#include <string>

namespace sahaj::text {

namespace {

// Distinct streams of randomness per purpose, so changing one decision never shifts another.
constexpr std::uint64_t kShuffleStream = 0x5348554646ULL; // "SHUFF"
constexpr std::uint64_t kBuildStream = 0x4255494c44ULL;   // "BUILD"
constexpr std::uint64_t kMaskStream = 0x4d41534bULL;      // "MASK"

std::vector<bool> wordStarts(const Tokenizer& tokenizer) {
    // Metaspace marks the start of every word with U+2581; splitting a lone sentence before such a
    // token keeps words whole.
    const int size = tokenizer.vocabSize();
    std::vector<bool> starts(static_cast<std::size_t>(size), false);
    for (int id = 0; id < size; ++id)
        starts[static_cast<std::size_t>(id)] = tokenizer.idToToken(id).startsWith(QChar(0x2581));
    return starts;
}

int checkedBatchSize(int batchSize) {
    if (batchSize < 1)
        throw std::invalid_argument("batch size must be at least 1, got " + std::to_string(batchSize));
    return batchSize;
}

} // namespace

PretrainingStream::PretrainingStream(const QString& corpusPath, const Tokenizer& tokenizer,
                                     int sequenceLength, int batchSize, std::uint64_t seed,
                                     PretrainingStreamOptions options, StreamPosition start)
    : corpusPath_(corpusPath), tokenizer_(tokenizer), sequenceLength_(sequenceLength),
      batchSize_(checkedBatchSize(batchSize)), seed_(seed), options_(std::move(options)),
      builder_(sequenceLength, tokenizer.clsId(), tokenizer.sepId(), wordStarts(tokenizer),
               options_.shortSequenceProbability),
      masker_(tokenizer.vocabSize(), tokenizer.maskId(), tokenizer.specialIds(), options_.mlmProbability),
      collator_(tokenizer.padId(), options_.padding, sequenceLength) {
    if (options_.shuffleBufferSize < 1)
        throw std::invalid_argument("shuffle buffer size must be at least 1");
    reader_ = std::make_unique<CorpusReader>(corpusPath, options_.corpus);
    restore(start);
}

PretrainingStream::~PretrainingStream() = default;

void PretrainingStream::setBatchSize(int batchSize) {
    batchSize_ = checkedBatchSize(batchSize);
}

void PretrainingStream::startPass(std::uint64_t pass) {
    reader_->rewind();
    pass_ = pass;
    shuffle_ = std::make_unique<ShuffleBuffer<QString>>(
        options_.shuffleBufferSize, PortableRandom::deriveSeed(seed_, {kShuffleStream, pass}));
    readerDone_ = false;
    documentsTaken_ = 0;
    examplesThisPass_ = 0;
    passStartedAtBeginning_ = true;
}

std::optional<QString> PretrainingStream::nextDocumentText() {
    while (!readerDone_) {
        std::optional<QString> document = reader_->next();
        if (!document) {
            readerDone_ = true;
            break;
        }
        if (std::optional<QString> out = shuffle_->exchange(std::move(*document)))
            return out;
    }
    return shuffle_->take();
}

std::vector<PretrainingExample> PretrainingStream::buildExamples(const QString& text,
                                                                 std::uint64_t document) const {
    const QStringList sentences = SentenceSplitter::split(text);
    std::vector<std::vector<int>> ids;
    ids.reserve(static_cast<std::size_t>(sentences.size()));
    for (const QString& sentence : sentences) {
        std::vector<int> sentenceIds = tokenizer_.encodeIds(sentence);
        if (!sentenceIds.empty())
            ids.push_back(std::move(sentenceIds));
    }
    PortableRandom random(PortableRandom::deriveSeed(seed_, {kBuildStream, pass_, document}));
    return builder_.build(ids, random);
}

void PretrainingStream::loadNextDocument() {
    for (;;) {
        std::optional<QString> text = nextDocumentText();
        if (!text) {
            if (examplesThisPass_ == 0 && passStartedAtBeginning_)
                throw std::runtime_error(
                    QStringLiteral(
                        "corpus %1 yields no training examples (no document has two or more tokens)")
                        .arg(corpusPath_)
                        .toStdString());
            startPass(pass_ + 1);
            continue;
        }
        const std::uint64_t document = documentsTaken_++;
        std::vector<PretrainingExample> examples = buildExamples(*text, document);
        if (examples.empty())
            continue;
        current_ = std::move(examples);
        currentDocument_ = document;
        nextExample_ = 0;
        return;
    }
}

PretrainingExample PretrainingStream::takeExample(bool mask) {
    if (nextExample_ >= current_.size())
        loadNextDocument();
    PretrainingExample example = current_[nextExample_];
    if (mask) {
        PortableRandom random(
            PortableRandom::deriveSeed(seed_, {kMaskStream, pass_, currentDocument_, nextExample_}));
        masker_.mask(example, random);
    }
    ++nextExample_;
    ++examplesThisPass_;
    return example;
}

std::vector<PretrainingExample> PretrainingStream::nextExamples() {
    std::vector<PretrainingExample> examples;
    examples.reserve(static_cast<std::size_t>(batchSize_));
    for (int i = 0; i < batchSize_; ++i)
        examples.push_back(takeExample(true));
    ++batches_;
    return examples;
}

compute::TokenBatch PretrainingStream::next() {
    return collator_.collate(nextExamples());
}

void PretrainingStream::skipBatches(std::uint64_t count) {
    for (std::uint64_t b = 0; b < count; ++b) {
        for (int i = 0; i < batchSize_; ++i)
            takeExample(false);
        ++batches_;
    }
}

StreamPosition PretrainingStream::position() const {
    StreamPosition position;
    position.batch = batches_;
    position.pass = pass_;
    if (nextExample_ < current_.size()) {
        position.document = currentDocument_;
        position.example = nextExample_;
    } else {
        position.document = documentsTaken_; // the next document to draw; example 0
    }
    return position;
}

void PretrainingStream::restore(const StreamPosition& start) {
    startPass(start.pass);
    const auto beyondCorpus = [&](std::uint64_t available) {
        return std::runtime_error(
            QStringLiteral("stream position (pass %1, document %2, example %3) is beyond "
                           "corpus %4, which has %5 documents: was the corpus changed?")
                .arg(start.pass)
                .arg(start.document)
                .arg(start.example)
                .arg(corpusPath_)
                .arg(available)
                .toStdString());
    };
    for (std::uint64_t d = 0; d < start.document; ++d) {
        if (!nextDocumentText())
            throw beyondCorpus(d);
    }
    documentsTaken_ = start.document;
    passStartedAtBeginning_ = start.document == 0 && start.example == 0;
    current_.clear();
    nextExample_ = 0;
    if (start.example > 0) {
        std::optional<QString> text = nextDocumentText();
        if (!text)
            throw beyondCorpus(start.document);
        current_ = buildExamples(*text, start.document);
        documentsTaken_ = start.document + 1;
        if (start.example >= current_.size())
            throw std::runtime_error(
                QStringLiteral("stream position: document %1 of pass %2 has %3 examples, "
                               "position asks for example %4: was the corpus, tokenizer "
                               "or sequence length changed?")
                    .arg(start.document)
                    .arg(start.pass)
                    .arg(current_.size())
                    .arg(start.example)
                    .toStdString());
        currentDocument_ = start.document;
        nextExample_ = static_cast<std::size_t>(start.example);
    }
    batches_ = start.batch;
}

} // namespace sahaj::text
