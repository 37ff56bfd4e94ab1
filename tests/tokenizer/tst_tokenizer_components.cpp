// Each component of the tokenizer pipeline on small hand-made tokenizer.json files whose results can
// be worked out by hand: normalizers, pre-tokenizers, added tokens, the Unigram Viterbi search, the
// template post-processor and the decoder.
#include "TinyTokenizerJson.h"

#include "core/text/NormalizerReplace.h"
#include "core/text/Tokenizer.h"

#include <QTest>

using namespace sahaj::text;
using namespace sahaj::text::testing;

namespace {

Tokenizer build(const Json& json) {
    return Tokenizer::fromJson(toBytes(json), QStringLiteral("test tokenizer"));
}

// A tokenizer that only has a normalizer (and the tiny model, which normalize() does not use).
Tokenizer withNormalizer(const Json& normalizer) {
    Json json = tinyTokenizer();
    json["normalizer"] = normalizer;
    return build(json);
}

Tokenizer withPreTokenizer(const Json& preTokenizer) {
    Json json = tinyTokenizer();
    json["pre_tokenizer"] = preTokenizer;
    return build(json);
}

// The model alone: no normalizer, no pre-tokenizer, no added tokens, no post-processor.
Tokenizer modelOnly(Json unkId = 1) {
    return build({{"model", {{"type", "Unigram"}, {"unk_id", unkId}, {"vocab", tinyVocab()}}}});
}

Json replace(const char* kind, const char* pattern, const char* content) {
    return {{"type", "Replace"}, {"pattern", {{kind, pattern}}}, {"content", content}};
}

QStringList list(std::initializer_list<const char*> items) {
    QStringList out;
    for (const char* item : items)
        out << QString::fromUtf8(item);
    return out;
}

std::vector<QString> strings(std::initializer_list<const char*> items) {
    std::vector<QString> out;
    for (const char* item : items)
        out.push_back(QString::fromUtf8(item));
    return out;
}

class TokenizerComponentsTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void nmtDropsControlsAndMapsInvisibleSpaces() {
        const Tokenizer t = withNormalizer({{"type", "Nmt"}});
        QCOMPARE(t.normalize(QString::fromUtf8("a\x01\x1f"
                                               "b\tc\nd\u200de\u200cf\u2581g\ufeffh\x7fi")),
                 QString::fromUtf8("ab c d e f g hi"));
        // Characters the rules do not name stay, NUL included.
        QCOMPARE(t.normalize(QString::fromUtf8("ক\u00a0খ")), QString::fromUtf8("ক\u00a0খ"));
        QCOMPARE(t.normalize(QStringLiteral("plain")), QStringLiteral("plain"));
    }

    void unicodeFormsArePinnedToUnicode9() {
        const Tokenizer nfkc = withNormalizer({{"type", "NFKC"}});
        QCOMPARE(nfkc.normalize(QString::fromUtf8("ﬁ①Ａ½")), QString::fromUtf8("fi1A1⁄2"));
        // BENGALI LETTER RRA decomposes (composition exclusion); SQUARE ERA NAME REIWA (Unicode 12.1)
        // is unknown to the reference tables and stays.
        QCOMPARE(nfkc.normalize(QString::fromUtf8("\u09dc")), QString::fromUtf8("\u09a1\u09bc"));
        QCOMPARE(nfkc.normalize(QString::fromUtf8("\u32ff")), QString::fromUtf8("\u32ff"));
        QCOMPARE(withNormalizer({{"type", "NFC"}}).normalize(QString::fromUtf8("e\u0301")),
                 QString::fromUtf8("é"));
        QCOMPARE(withNormalizer({{"type", "NFD"}}).normalize(QString::fromUtf8("é")),
                 QString::fromUtf8("e\u0301"));
        QCOMPARE(withNormalizer({{"type", "NFKD"}}).normalize(QString::fromUtf8("ﬁé")),
                 QString::fromUtf8("fie\u0301"));
    }

    void lowercaseIsPerCharacter() {
        const Tokenizer t = withNormalizer({{"type", "Lowercase"}});
        QCOMPARE(t.normalize(QString::fromUtf8("ΟΔΟΣ ABC")), QString::fromUtf8("οδοσ abc"));
        QCOMPARE(t.normalize(QString::fromUtf8("İ")), QString::fromUtf8("i\u0307"));
        QCOMPARE(t.normalize(QString::fromUtf8("বাংলা")), QString::fromUtf8("বাংলা"));
    }

    void replaceLiteralAndRegex() {
        QCOMPARE(withNormalizer(replace("String", "|", "।")).normalize(QStringLiteral("a|b||c")),
                 QString::fromUtf8("a।b।।c"));
        QCOMPARE(withNormalizer(replace("Regex", " {2,}", " ")).normalize(QStringLiteral("a  b     c d")),
                 QStringLiteral("a b c d"));
        const Tokenizer visarga = withNormalizer(replace("Regex", "(?<=[\\u0980-\\u09ff]):", "ঃ"));
        QCOMPARE(visarga.normalize(QString::fromUtf8("ক:খ a:b ১২:৩০ :")),
                 QString::fromUtf8("কঃখ a:b ১২ঃ৩০ :"));
        // The content is inserted literally, never as a group reference.
        QCOMPARE(withNormalizer(replace("Regex", "(l)(e)", "$1 $2")).normalize(QStringLiteral("le travail")),
                 QStringLiteral("$1 $2 travail"));
        QCOMPARE(withNormalizer(replace("Regex", "\\s+", "_")).normalize(QString::fromUtf8("a \u3000b")),
                 QStringLiteral("a_b"));
    }

    void onigurumaEscapesBecomePcre() {
        QCOMPARE(NormalizerReplace::toPcrePattern(QStringLiteral("[\\u0980-\\u09ff]")),
                 QStringLiteral("[\\x{0980}-\\x{09ff}]"));
        QCOMPARE(NormalizerReplace::toPcrePattern(QStringLiteral("\\\\u0980 \\d")),
                 QStringLiteral("\\\\u0980 \\d"));
    }

    void sequenceKeepsOrder() {
        const Json replaceThenLower = {
            {"type", "Sequence"},
            {"normalizers", Json::array({replace("String", "A", "B"), {{"type", "Lowercase"}}})}};
        const Json lowerThenReplace = {
            {"type", "Sequence"},
            {"normalizers", Json::array({{{"type", "Lowercase"}}, replace("String", "A", "B")})}};
        QCOMPARE(withNormalizer(replaceThenLower).normalize(QStringLiteral("A")), QStringLiteral("b"));
        QCOMPARE(withNormalizer(lowerThenReplace).normalize(QStringLiteral("A")), QStringLiteral("a"));
    }

    void metaspacePreTokenizer() {
        const Tokenizer always = withPreTokenizer(metaspace());
        QCOMPARE(always.preTokenize(QStringLiteral("hello world")), list({"▁hello", "▁world"}));
        QCOMPARE(always.preTokenize(QStringLiteral("  a")), list({"▁", "▁a"}));
        QCOMPARE(always.preTokenize(QStringLiteral("a  ")), list({"▁a", "▁", "▁"}));
        QCOMPARE(always.preTokenize(QString()), QStringList());
        Json never = metaspace();
        never["prepend_scheme"] = "never";
        QCOMPARE(withPreTokenizer(never).preTokenize(QStringLiteral("a b")), list({"a", "▁b"}));
        Json legacy = metaspace();
        legacy.erase("prepend_scheme");
        legacy["add_prefix_space"] = true;
        QCOMPARE(withPreTokenizer(legacy).preTokenize(QStringLiteral("a b")), list({"▁a", "▁b"}));
        Json whole = metaspace();
        whole["split"] = false;
        QCOMPARE(withPreTokenizer(whole).preTokenize(QStringLiteral("a b")), list({"▁a▁b"}));
        Json other = metaspace();
        other["replacement"] = "_";
        QCOMPARE(withPreTokenizer(other).preTokenize(QStringLiteral("a b")), list({"_a", "_b"}));
    }

    void metaspaceFirstPrependsOnlyAtTheStartOfTheText() {
        Json json = tinyTokenizer();
        Json first = metaspace();
        first["prepend_scheme"] = "first";
        json["pre_tokenizer"] = first;
        const Tokenizer t = build(json);
        // "x [CLS] a": the part after [CLS] does not start the text and gets no ▁ of its own.
        QCOMPARE(t.encode(QStringLiteral("x[CLS]a"), false).tokens, strings({"▁", "x", "[CLS]", "a"}));
        QCOMPARE(t.encode(QStringLiteral("x [CLS] a"), false).tokens,
                 strings({"▁", "x", "▁", "[CLS]", "▁a"}));
    }

    void digits() {
        const Json individual = {{"type", "Digits"}, {"individual_digits", true}};
        const Json runs = {{"type", "Digits"}, {"individual_digits", false}};
        QCOMPARE(withPreTokenizer(individual).preTokenize(QString::fromUtf8("a123b১২")),
                 list({"a", "1", "2", "3", "b", "১", "২"}));
        QCOMPARE(withPreTokenizer(runs).preTokenize(QString::fromUtf8("a123b১২")),
                 list({"a", "123", "b", "১২"}));
        // Other numbers (No) count too: BENGALI CURRENCY NUMERATOR ONE.
        QCOMPARE(withPreTokenizer(individual).preTokenize(QString::fromUtf8("ক৴খ")), list({"ক", "৴", "খ"}));
    }

    void punctuationBehaviors() {
        const auto pieces = [](const char* behavior, const char* text) {
            return withPreTokenizer({{"type", "Punctuation"}, {"behavior", behavior}})
                .preTokenize(QString::fromUtf8(text));
        };
        QCOMPARE(pieces("Isolated", "a,b!?"), list({"a", ",", "b", "!", "?"}));
        QCOMPARE(pieces("Removed", "a,b!?"), list({"a", "b"}));
        QCOMPARE(pieces("MergedWithPrevious", "a,b!?"), list({"a,", "b!", "?"}));
        QCOMPARE(pieces("MergedWithNext", "a,b!?"), list({"a", ",b", "!", "?"}));
        QCOMPARE(pieces("Contiguous", "a,b!?"), list({"a", ",", "b", "!?"}));
        QCOMPARE(withPreTokenizer({{"type", "Punctuation"}}).preTokenize(QString::fromUtf8("ক।খ$+")),
                 list({"ক", "।", "খ", "$", "+"}));
        // BENGALI ABBREVIATION SIGN (Unicode 10) is newer than the reference's tables: not punctuation.
        QCOMPARE(withPreTokenizer({{"type", "Punctuation"}}).preTokenize(QString::fromUtf8("ক\u09fdখ")),
                 list({"ক\u09fdখ"}));
    }

    void preTokenizerSequence() {
        const Tokenizer t = build(tinyTokenizer());
        QCOMPARE(t.preTokenize(QStringLiteral("ab 12.c")), list({"▁ab", "▁", "1", "2", ".", "c"}));
    }

    void viterbiPicksTheBestSegmentation() {
        const Tokenizer t = modelOnly();
        // ab+c and a+bc both score -7; the first found (a+bc, from the earlier start) wins the tie.
        QCOMPARE(t.encode(QStringLiteral("abc"), false).tokens, strings({"a", "bc"}));
        QCOMPARE(t.encodeIds(QStringLiteral("abc")), (std::vector<int>{6, 12}));
        QCOMPARE(t.encode(QString::fromUtf8("▁abc"), false).tokens, strings({"▁ab", "c"}));
        QCOMPARE(t.encodeIds(QString::fromUtf8("▁ab")), (std::vector<int>{10}));
        QCOMPARE(t.encodeIds(QString()), std::vector<int>{});
    }

    void unknownCharactersFuse() {
        const Tokenizer t = modelOnly();
        QCOMPARE(t.encode(QStringLiteral("a?b"), false).tokens, strings({"a", "?", "b"}));
        QCOMPARE(t.encodeIds(QStringLiteral("a?b")), (std::vector<int>{6, 1, 7}));
        QCOMPARE(t.encode(QStringLiteral("a?!b"), false).tokens, strings({"a", "?!", "b"}));
        QCOMPARE(t.encodeIds(QStringLiteral("a?!b")), (std::vector<int>{6, 1, 7}));
        // Characters outside the BMP: one in the vocabulary, one not.
        QCOMPARE(t.encodeIds(QString::fromUtf8("a😀b")), (std::vector<int>{6, 19, 7}));
        QCOMPARE(t.encode(QString::fromUtf8("a😁😁b"), false).tokens, strings({"a", "😁😁", "b"}));
        QCOMPARE(t.encodeIds(QString::fromUtf8("a😁b")), (std::vector<int>{6, 1, 7}));
    }

    void unknownWithoutUnkIdThrows() {
        const Tokenizer t = modelOnly(nullptr);
        QCOMPARE(t.unkId(), -1);
        QCOMPARE(t.encodeIds(QStringLiteral("ab")), (std::vector<int>{9}));
        QVERIFY_THROWS_EXCEPTION(TokenizerError, t.encodeIds(QStringLiteral("a?")));
    }

    void addedTokensNormalizedAndRaw() {
        const Tokenizer t = build(tinyTokenizer());
        // [MASK] is normalized (matched as "[mask]") and strips the whitespace on its left.
        Encoding e = t.encode(QStringLiteral("ab [MASK] c"), false);
        QCOMPARE(e.tokens, strings({"▁ab", " [mask]", "▁c"}));
        QCOMPARE(e.ids, (std::vector<int>{10, 4, 13}));
        QCOMPARE(t.encodeIds(QStringLiteral("ab [mask] c")), (std::vector<int>{10, 4, 13}));
        QCOMPARE(t.encode(QStringLiteral("[MASK]  [MASK]"), false).tokens, strings({"[mask]", "  [mask]"}));
        // [CLS] is not normalized: only the exact spelling in the raw text matches.
        e = t.encode(QStringLiteral("a[CLS]b"), false);
        QCOMPARE(e.tokens, strings({"▁a", "[CLS]", "▁", "b"}));
        QCOMPARE(e.ids, (std::vector<int>{17, 2, 5, 7}));
        const std::vector<int> lower = t.encodeIds(QStringLiteral("[cls]"));
        QVERIFY(std::find(lower.begin(), lower.end(), 2) == lower.end());
    }

    void addedTokenOptions() {
        Json json = tinyTokenizer();
        json["added_tokens"].push_back(
            {{"id", 9}, {"content", "ab"}, {"single_word", true}, {"rstrip", true}, {"normalized", false}});
        json["added_tokens"].push_back({{"id", 20}, {"content", "zz"}, {"normalized", false}});
        const Tokenizer t = build(json);
        QCOMPARE(t.encode(QStringLiteral("ab  c"), false).tokens, strings({"ab  ", "▁c"}));
        // Inside a word the single-word token does not match and the model segments the text.
        QCOMPARE(t.encode(QStringLiteral("abc"), false).tokens, strings({"▁ab", "c"}));
        // A token outside the model's vocabulary gets the next id.
        QCOMPARE(t.vocabSize(), 21);
        QCOMPARE(t.tokenToId(QStringLiteral("zz")), 20);
        QCOMPARE(t.idToToken(20), QStringLiteral("zz"));
        QCOMPARE(t.encodeIds(QStringLiteral("azz")), (std::vector<int>{17, 20}));
        QCOMPARE(t.decode({17, 20}), QStringLiteral("azz"));
    }

    void templateSingleAndPair() {
        const Tokenizer t = build(tinyTokenizer());
        Encoding single = t.encode(QStringLiteral("ab"));
        QCOMPARE(single.ids, (std::vector<int>{2, 10, 3}));
        QCOMPARE(single.typeIds, (std::vector<int>{0, 0, 0}));
        QCOMPARE(single.tokens, strings({"[CLS]", "▁ab", "[SEP]"}));
        Encoding pair = t.encodePair(QStringLiteral("ab"), QStringLiteral("c"));
        QCOMPARE(pair.ids, (std::vector<int>{2, 10, 3, 13, 3}));
        QCOMPARE(pair.typeIds, (std::vector<int>{0, 0, 0, 1, 1}));
        pair = t.encodePair(QStringLiteral("ab"), QStringLiteral("c"), false);
        QCOMPARE(pair.ids, (std::vector<int>{10, 13}));
        QCOMPARE(pair.typeIds, (std::vector<int>{0, 1}));
        QCOMPARE(t.encode(QString()).ids, (std::vector<int>{2, 3}));
        QCOMPARE(t.clsId(), 2);
        QCOMPARE(t.sepId(), 3);
        QCOMPARE(t.maskId(), 4);
        QCOMPARE(t.padId(), 0);
        QCOMPARE(t.specialIds(), (std::vector<int>{0, 1, 2, 3, 4}));
    }

    void withoutPostProcessorNothingIsAdded() {
        Json json = tinyTokenizer();
        json.erase("post_processor");
        const Tokenizer t = build(json);
        const Encoding pair = t.encodePair(QStringLiteral("ab"), QStringLiteral("c"));
        QCOMPARE(pair.ids, (std::vector<int>{10, 13}));
        QCOMPARE(pair.typeIds, (std::vector<int>{0, 1}));
    }

    void decode() {
        const Tokenizer t = build(tinyTokenizer());
        // The first token loses its ▁; the normalized [MASK] decodes as "[mask]" and, being spelled
        // differently from the special token, is kept even when special tokens are skipped.
        QCOMPARE(t.decode({2, 10, 4, 13, 3}), QStringLiteral("ab[mask] c"));
        QCOMPARE(t.decode({2, 10, 4, 13, 3}, false), QStringLiteral("[CLS] ab[mask] c[SEP]"));
        QCOMPARE(t.decode({10, 999, -1, 13}), QStringLiteral("ab c"));
        QCOMPARE(t.decode({}), QString());
        Json json = tinyTokenizer();
        json.erase("decoder");
        QCOMPARE(build(json).decode({10, 13}), QString::fromUtf8("▁ab ▁c"));
    }

    void copiesShareTheTokenizer() {
        const Tokenizer original = build(tinyTokenizer());
        const Tokenizer copy = original;
        QCOMPARE(copy.encode(QStringLiteral("ab c")).ids, original.encode(QStringLiteral("ab c")).ids);
    }
};

} // namespace

QTEST_GUILESS_MAIN(TokenizerComponentsTest)
#include "tst_tokenizer_components.moc"
