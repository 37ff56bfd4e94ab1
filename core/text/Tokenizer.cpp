#include "core/text/Tokenizer.h"

#include "core/text/TokenizerLoader.h"
#include "core/text/TokenizerPipeline.h"

#include <QFile>

namespace sahaj::text {

Tokenizer::Tokenizer(std::shared_ptr<const TokenizerPipeline> pipeline) : pipeline_(std::move(pipeline)) {}

Tokenizer Tokenizer::fromFile(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        throw TokenizerError(path.toStdString() +
                             ": cannot read the tokenizer file: " + file.errorString().toStdString());
    return fromJson(file.readAll(), path);
}

Tokenizer Tokenizer::fromJson(const QByteArray& json, const QString& origin) {
    return Tokenizer(TokenizerLoader::load(json, origin));
}

Encoding Tokenizer::encode(const QString& text, bool addSpecialTokens) const {
    Encoding sequence;
    pipeline_->encodeSequence(text, sequence.ids, &sequence.tokens);
    Encoding out;
    pipeline_->postProcess(sequence, nullptr, addSpecialTokens, true, out);
    return out;
}

Encoding Tokenizer::encodePair(const QString& a, const QString& b, bool addSpecialTokens) const {
    Encoding first, second;
    pipeline_->encodeSequence(a, first.ids, &first.tokens);
    pipeline_->encodeSequence(b, second.ids, &second.tokens);
    Encoding out;
    pipeline_->postProcess(first, &second, addSpecialTokens, true, out);
    return out;
}

std::vector<int> Tokenizer::encodeIds(const QString& text) const {
    std::vector<int> ids;
    pipeline_->encodeSequence(text, ids, nullptr);
    return ids;
}

QString Tokenizer::decode(const std::vector<int>& ids, bool skipSpecialTokens) const {
    return pipeline_->decode(ids, skipSpecialTokens);
}

QString Tokenizer::normalize(const QString& text) const {
    return pipeline_->normalize(text);
}

QStringList Tokenizer::preTokenize(const QString& normalized) const {
    return pipeline_->preTokenize(normalized);
}

int Tokenizer::tokenToId(const QString& token) const {
    return pipeline_->tokenToId(token);
}

QString Tokenizer::idToToken(int id) const {
    return pipeline_->idToToken(id);
}

int Tokenizer::vocabSize() const {
    return pipeline_->vocabSize();
}

int Tokenizer::firstIdOf(std::initializer_list<const char*> spellings) const {
    for (const char* spelling : spellings) {
        const int id = tokenToId(QString::fromLatin1(spelling));
        if (id >= 0)
            return id;
    }
    return -1;
}

int Tokenizer::padId() const {
    return firstIdOf({"<pad>", "[PAD]"});
}

int Tokenizer::unkId() const {
    return pipeline_->unkId();
}

int Tokenizer::clsId() const {
    return firstIdOf({"[CLS]", "<s>"});
}

int Tokenizer::sepId() const {
    return firstIdOf({"[SEP]", "</s>"});
}

int Tokenizer::maskId() const {
    return firstIdOf({"[MASK]", "<mask>"});
}

std::vector<int> Tokenizer::specialIds() const {
    return pipeline_->specialIds();
}

} // namespace sahaj::text
