// Fuzz target: a Hugging Face tokenizer.json (Tokenizer::fromJson, what fromFile reads), and for a
// tokenizer that loads, the pipeline it built run over a few texts: every id it gives must index an
// embedding table of vocabSize() rows, and every type id one of the token type embeddings.
#include "core/text/Tokenizer.h"
#include "core/text/TokenizerError.h"
#include "fuzz/InputVerdict.h"

#include <cstdint>
#include <cstdlib>

using sahaj::fuzz::InputVerdict;
using sahaj::text::Encoding;
using sahaj::text::Tokenizer;
using sahaj::text::TokenizerError;

namespace {

// One type id and one token per id (the batch collator lays them out side by side); ids and type ids
// are rows of embedding tables, so never negative, and ids below vocabSize().
void requireConsistent(const Encoding& encoding, int vocabSize) {
    if (encoding.typeIds.size() != encoding.ids.size() || encoding.tokens.size() != encoding.ids.size())
        std::abort();
    for (const int id : encoding.ids)
        if (id < 0 || id >= vocabSize)
            std::abort();
    for (const int typeId : encoding.typeIds)
        if (typeId < 0)
            std::abort();
}

// Bengali with a conjunct, Latin in both cases, digits, punctuation, an emoji, a special token, runs of
// spaces: every component of the pipeline has something to do.
const QString kTexts[] = {
    QStringLiteral("আমি বাংলায় গান গাই। ক্ষমা"),
    QStringLiteral("  Hello, World!  12.5 😀 [MASK] x"),
    QString(),
};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const QByteArray json(reinterpret_cast<const char*>(data), static_cast<qsizetype>(size));
    try {
        const Tokenizer tokenizer = Tokenizer::fromJson(json, QStringLiteral("fuzz input"));
        InputVerdict::accepted();
        const int vocabSize = tokenizer.vocabSize();
        for (const QString& text : kTexts) {
            const Encoding single = tokenizer.encode(text);
            requireConsistent(single, vocabSize);
            tokenizer.decode(single.ids);
            tokenizer.decode(single.ids, false);
            requireConsistent(tokenizer.encodePair(text, kTexts[0]), vocabSize);
        }
    } catch (const TokenizerError& e) {
        // An unusable file, or a text it cannot tokenize (no unknown token).
        InputVerdict::refused(e);
    }
    return 0;
}
