#include "core/text/TokenizerLoader.h"

#include "core/text/DecoderMetaspace.h"
#include "core/text/NormalizerLowercase.h"
#include "core/text/NormalizerNmt.h"
#include "core/text/NormalizerReplace.h"
#include "core/text/NormalizerSequence.h"
#include "core/text/NormalizerUnicode.h"
#include "core/text/PreTokenizerDigits.h"
#include "core/text/PreTokenizerMetaspace.h"
#include "core/text/PreTokenizerPunctuation.h"
#include "core/text/PreTokenizerSequence.h"
#include "core/text/TokenizerError.h"
#include "core/text/TokenizerPipeline.h"
#include "core/text/TokenizerUnicode.h"

#include <nlohmann/json.hpp>

#include <limits>
#include <map>

namespace sahaj::text {

namespace {

using Json = nlohmann::json;

// Problems are reported with the JSON path of the offending element; load() adds the file name.
[[noreturn]] void fail(const std::string& where, const std::string& problem) {
    throw TokenizerError(where + " " + problem);
}

QString toQString(const std::string& utf8) {
    return TokenizerUnicode::fromUtf8(QByteArrayView(utf8.data(), qsizetype(utf8.size())));
}

const Json* member(const Json& object, const char* key) {
    const auto it = object.find(key);
    return it == object.end() || it->is_null() ? nullptr : &*it;
}

std::string typeOf(const Json& object, const std::string& where) {
    if (!object.is_object())
        fail(where, "must be a JSON object");
    const Json* type = member(object, "type");
    if (!type)
        fail(where, "has no 'type'");
    if (!type->is_string())
        fail(where, "'type' must be a string");
    return type->get<std::string>();
}

std::string stringField(const Json& object, const char* key, const std::string& where) {
    const Json* value = member(object, key);
    if (!value || !value->is_string())
        fail(where, std::string("needs a string '") + key + "'");
    return value->get<std::string>();
}

bool boolField(const Json& object, const char* key, bool fallback, const std::string& where) {
    const Json* value = member(object, key);
    if (!value)
        return fallback;
    if (!value->is_boolean())
        fail(where, std::string("'") + key + "' must be true or false");
    return value->get<bool>();
}

const Json& arrayField(const Json& object, const char* key, const std::string& where) {
    const Json* value = member(object, key);
    if (!value)
        fail(where, std::string("has no '") + key + "'");
    if (!value->is_array())
        fail(where, std::string("'") + key + "' must be a list");
    return *value;
}

std::unique_ptr<const Normalizer> readNormalizer(const Json& config, const std::string& where) {
    const std::string type = typeOf(config, where);
    if (type == "Sequence") {
        const Json& list = arrayField(config, "normalizers", where);
        std::vector<std::unique_ptr<const Normalizer>> steps;
        for (std::size_t i = 0; i < list.size(); ++i)
            steps.push_back(readNormalizer(list[i], where + ".normalizers[" + std::to_string(i) + "]"));
        return std::make_unique<NormalizerSequence>(std::move(steps));
    }
    if (type == "Nmt")
        return std::make_unique<NormalizerNmt>();
    if (type == "NFKC")
        return std::make_unique<NormalizerUnicode>(QString::NormalizationForm_KC);
    if (type == "NFC")
        return std::make_unique<NormalizerUnicode>(QString::NormalizationForm_C);
    if (type == "NFKD")
        return std::make_unique<NormalizerUnicode>(QString::NormalizationForm_KD);
    if (type == "NFD")
        return std::make_unique<NormalizerUnicode>(QString::NormalizationForm_D);
    if (type == "Lowercase")
        return std::make_unique<NormalizerLowercase>();
    if (type == "Replace") {
        const Json* pattern = member(config, "pattern");
        if (!pattern || !pattern->is_object() || pattern->size() != 1)
            fail(where, "needs a 'pattern' of the form {\"String\": ...} or {\"Regex\": ...}");
        const auto first = pattern->begin();
        const std::string kind = first.key();
        const Json& text = first.value();
        if ((kind != "String" && kind != "Regex") || !text.is_string())
            fail(where, "pattern kind '" + kind + "' is not supported (String or Regex)");
        const auto patternKind =
            kind == "String" ? NormalizerReplace::PatternKind::String : NormalizerReplace::PatternKind::Regex;
        try {
            return std::make_unique<NormalizerReplace>(patternKind, toQString(text.get<std::string>()),
                                                       toQString(stringField(config, "content", where)));
        } catch (const TokenizerError& e) {
            fail(where, e.what());
        }
    }
    fail(where, "type '" + type + "' is not supported");
}

char32_t readReplacement(const Json& config, const std::string& where) {
    const QString replacement = toQString(stringField(config, "replacement", where));
    const QList<uint> codePoints = replacement.toUcs4();
    if (codePoints.size() != 1)
        fail(where, "'replacement' must be exactly one character");
    return codePoints.front();
}

// Metaspace's prepend_scheme, or the add_prefix_space flag that files written before it use.
PreTokenizerMetaspace::PrependScheme readPrependScheme(const Json& config, const std::string& where) {
    using Scheme = PreTokenizerMetaspace::PrependScheme;
    const Json* declared = member(config, "prepend_scheme");
    Scheme scheme = Scheme::Always;
    if (declared) {
        const std::string name = declared->is_string() ? declared->get<std::string>() : std::string();
        if (name == "always")
            scheme = Scheme::Always;
        else if (name == "first")
            scheme = Scheme::First;
        else if (name == "never")
            scheme = Scheme::Never;
        else
            fail(where, "'prepend_scheme' must be \"always\", \"first\" or \"never\"");
    }
    if (!boolField(config, "add_prefix_space", true, where)) {
        if (declared && scheme != Scheme::Never)
            fail(where, "'add_prefix_space' false contradicts 'prepend_scheme'");
        scheme = Scheme::Never;
    }
    return scheme;
}

SplitBehavior readBehavior(const Json& config, const std::string& where) {
    const Json* value = member(config, "behavior");
    if (!value)
        return SplitBehavior::Isolated;
    static const std::map<std::string, SplitBehavior> names = {
        {"Removed", SplitBehavior::Removed},
        {"Isolated", SplitBehavior::Isolated},
        {"MergedWithPrevious", SplitBehavior::MergedWithPrevious},
        {"MergedWithNext", SplitBehavior::MergedWithNext},
        {"Contiguous", SplitBehavior::Contiguous},
    };
    const auto it = value->is_string() ? names.find(value->get<std::string>()) : names.end();
    if (it == names.end())
        fail(where, "'behavior' must be one of Removed, Isolated, MergedWithPrevious, MergedWithNext, "
                    "Contiguous");
    return it->second;
}

std::unique_ptr<const PreTokenizer> readPreTokenizer(const Json& config, const std::string& where) {
    const std::string type = typeOf(config, where);
    if (type == "Sequence") {
        const Json& list = arrayField(config, "pretokenizers", where);
        std::vector<std::unique_ptr<const PreTokenizer>> steps;
        for (std::size_t i = 0; i < list.size(); ++i)
            steps.push_back(readPreTokenizer(list[i], where + ".pretokenizers[" + std::to_string(i) + "]"));
        return std::make_unique<PreTokenizerSequence>(std::move(steps));
    }
    if (type == "Metaspace")
        return std::make_unique<PreTokenizerMetaspace>(readReplacement(config, where),
                                                       readPrependScheme(config, where),
                                                       boolField(config, "split", true, where));
    if (type == "Digits")
        return std::make_unique<PreTokenizerDigits>(boolField(config, "individual_digits", false, where));
    if (type == "Punctuation")
        return std::make_unique<PreTokenizerPunctuation>(readBehavior(config, where));
    fail(where, "type '" + type + "' is not supported");
}

std::unique_ptr<const UnigramModel> readModel(const Json& config) {
    const std::string where = "model";
    const std::string type = typeOf(config, where);
    if (type != "Unigram")
        fail(where, "type '" + type + "' is not supported (only Unigram)");
    if (boolField(config, "byte_fallback", false, where))
        fail(where, "option byte_fallback is not supported");
    const Json& vocab = arrayField(config, "vocab", where);
    if (vocab.empty())
        fail(where, "has an empty vocabulary");
    std::vector<QString> pieces;
    std::vector<double> scores;
    pieces.reserve(vocab.size());
    scores.reserve(vocab.size());
    for (std::size_t i = 0; i < vocab.size(); ++i) {
        const Json& entry = vocab[i];
        if (!entry.is_array() || entry.size() != 2 || !entry[0].is_string() || !entry[1].is_number())
            fail(where + ".vocab[" + std::to_string(i) + "]", "must be a [piece, score] pair");
        pieces.push_back(toQString(entry[0].get<std::string>()));
        scores.push_back(entry[1].get<double>());
    }
    int unkId = -1;
    if (const Json* unk = member(config, "unk_id")) {
        if (!unk->is_number_integer())
            fail(where, "'unk_id' must be an integer or null");
        const long long value = unk->get<long long>();
        if (value < 0 || value >= static_cast<long long>(pieces.size()))
            fail(where, "unk_id " + std::to_string(value) + " is out of range (vocab has " +
                            std::to_string(pieces.size()) + " entries)");
        unkId = int(value);
    }
    try {
        return std::make_unique<UnigramModel>(std::move(pieces), std::move(scores), unkId);
    } catch (const TokenizerError& e) {
        fail(where, e.what());
    }
}

// Added tokens get their ids as tokenizers' AddedVocabulary assigns them: a token already in the model
// keeps the model's id, any other gets the next id after the model and the tokens before it.
std::vector<AddedToken> readAddedTokens(const Json* list, const UnigramModel& model,
                                        const Normalizer* normalizer) {
    std::vector<AddedToken> tokens;
    if (!list)
        return tokens;
    if (!list->is_array())
        fail("added_tokens", "must be a list");
    int nextId = model.size();
    std::map<QString, std::size_t> byContent;
    for (std::size_t i = 0; i < list->size(); ++i) {
        const std::string where = "added_tokens[" + std::to_string(i) + "]";
        const Json& entry = (*list)[i];
        if (!entry.is_object())
            fail(where, "must be a JSON object");
        AddedToken token;
        token.content = toQString(stringField(entry, "content", where));
        if (token.content.isEmpty())
            fail(where, "has an empty 'content'");
        token.special = boolField(entry, "special", false, where);
        token.singleWord = boolField(entry, "single_word", false, where);
        token.lstrip = boolField(entry, "lstrip", false, where);
        token.rstrip = boolField(entry, "rstrip", false, where);
        token.normalized = boolField(entry, "normalized", !token.special, where);
        if (token.normalized && normalizer) {
            QString normalized = token.content;
            normalizer->normalize(normalized);
            if (normalized != token.content)
                token.normalizedContent = normalized;
            if (normalized.isEmpty())
                fail(where, "content '" + token.content.toStdString() + "' normalizes to nothing");
        }
        const auto seen = byContent.find(token.content);
        if (seen != byContent.end()) {
            // The same content again replaces the earlier options and keeps its id.
            token.id = tokens[seen->second].id;
            tokens[seen->second] = token;
            continue;
        }
        const int modelId = model.tokenToId(token.content);
        token.id = modelId >= 0 ? modelId : nextId++;
        byContent.emplace(token.content, tokens.size());
        tokens.push_back(std::move(token));
    }
    return tokens;
}

std::vector<PostProcessorTemplate::Item>
readTemplate(const Json& config, const char* key,
             const std::map<std::string, PostProcessorTemplate::Item>& specials, bool allowB,
             const std::string& where) {
    const Json& list = arrayField(config, key, where);
    std::vector<PostProcessorTemplate::Item> items;
    for (std::size_t i = 0; i < list.size(); ++i) {
        const std::string itemWhere = where + "." + key + "[" + std::to_string(i) + "]";
        const Json& entry = list[i];
        if (!entry.is_object() || entry.size() != 1)
            fail(itemWhere, "must be {\"Sequence\": ...} or {\"SpecialToken\": ...}");
        const auto first = entry.begin();
        const std::string kind = first.key();
        const Json& body = first.value();
        // A type id is a row of the model's token type embeddings: never negative (tokenizers reads it as
        // an unsigned number), and it must fit the int an Encoding holds.
        constexpr long long kMaxTypeId = std::numeric_limits<int>::max();
        if (!body.is_object() || !member(body, "type_id") || !body["type_id"].is_number_integer() ||
            body["type_id"].get<long long>() < 0 || body["type_id"].get<long long>() > kMaxTypeId)
            fail(itemWhere, "needs an integer 'type_id' from 0 to " + std::to_string(kMaxTypeId));
        PostProcessorTemplate::Item item;
        const std::string id = stringField(body, "id", itemWhere);
        if (kind == "Sequence") {
            if (id != "A" && !(allowB && id == "B"))
                fail(itemWhere, "sequence '" + id + "' is not allowed here");
            item.isSequence = true;
            item.sequence = id == "A" ? 0 : 1;
        } else if (kind == "SpecialToken") {
            const auto it = specials.find(id);
            if (it == specials.end())
                fail(itemWhere, "special token '" + id + "' is missing from special_tokens");
            item = it->second;
        } else {
            fail(itemWhere, "kind '" + kind + "' is not supported");
        }
        item.typeId = body["type_id"].get<int>();
        items.push_back(std::move(item));
    }
    return items;
}

std::unique_ptr<const PostProcessorTemplate> readPostProcessor(const Json& config, int vocabSize) {
    const std::string where = "post_processor";
    const std::string type = typeOf(config, where);
    if (type != "TemplateProcessing")
        fail(where, "type '" + type + "' is not supported (only TemplateProcessing)");
    std::map<std::string, PostProcessorTemplate::Item> specials;
    if (const Json* map = member(config, "special_tokens")) {
        if (!map->is_object())
            fail(where, "'special_tokens' must be a JSON object");
        for (const auto& [name, entry] : map->items()) {
            const std::string entryWhere = where + ".special_tokens." + name;
            const Json& ids = arrayField(entry, "ids", entryWhere);
            const Json& tokens = arrayField(entry, "tokens", entryWhere);
            if (ids.size() != tokens.size())
                fail(entryWhere, "needs as many 'tokens' as 'ids'");
            PostProcessorTemplate::Item item;
            for (std::size_t i = 0; i < ids.size(); ++i) {
                if (!ids[i].is_number_integer() || ids[i].get<long long>() < 0 ||
                    ids[i].get<long long>() >= vocabSize)
                    fail(entryWhere, "id " + ids[i].dump() + " is not in the vocabulary (" +
                                         std::to_string(vocabSize) + " ids)");
                if (!tokens[i].is_string())
                    fail(entryWhere, "tokens must be strings");
                item.ids.push_back(ids[i].get<int>());
                item.tokens.push_back(toQString(tokens[i].get<std::string>()));
            }
            specials.emplace(name, std::move(item));
        }
    }
    return std::make_unique<PostProcessorTemplate>(readTemplate(config, "single", specials, false, where),
                                                   readTemplate(config, "pair", specials, true, where));
}

std::unique_ptr<const Decoder> readDecoder(const Json& config) {
    const std::string where = "decoder";
    const std::string type = typeOf(config, where);
    if (type != "Metaspace")
        fail(where, "type '" + type + "' is not supported (only Metaspace)");
    const auto scheme = readPrependScheme(config, where);
    return std::make_unique<DecoderMetaspace>(readReplacement(config, where),
                                              scheme != PreTokenizerMetaspace::PrependScheme::Never);
}

std::shared_ptr<const TokenizerPipeline> loadJson(const QByteArray& bytes) {
    Json root;
    try {
        root = Json::parse(bytes.constBegin(), bytes.constEnd());
    } catch (const Json::parse_error& e) {
        throw TokenizerError(std::string("is not valid JSON: ") + e.what());
    }
    if (!root.is_object())
        throw TokenizerError("is not a tokenizer.json (the top level must be a JSON object)");
    // Truncation and padding change what encode() returns; this tokenizer does neither, so a file that
    // asks for them is refused rather than quietly answered differently.
    if (member(root, "truncation"))
        fail("truncation", "is not supported (must be null)");
    if (member(root, "padding"))
        fail("padding", "is not supported (must be null)");
    const Json* model = member(root, "model");
    if (!model)
        throw TokenizerError("has no 'model'");

    TokenizerPipeline::Parts parts;
    if (const Json* normalizer = member(root, "normalizer"))
        parts.normalizer = readNormalizer(*normalizer, "normalizer");
    if (const Json* preTokenizer = member(root, "pre_tokenizer"))
        parts.preTokenizer = readPreTokenizer(*preTokenizer, "pre_tokenizer");
    parts.model = readModel(*model);
    std::vector<AddedToken> added =
        readAddedTokens(member(root, "added_tokens"), *parts.model, parts.normalizer.get());
    int vocabSize = parts.model->size();
    for (const AddedToken& token : added)
        vocabSize = std::max(vocabSize, token.id + 1);
    parts.addedTokens = AddedTokenVocabulary(std::move(added));
    if (const Json* postProcessor = member(root, "post_processor"))
        parts.postProcessor = readPostProcessor(*postProcessor, vocabSize);
    if (const Json* decoder = member(root, "decoder"))
        parts.decoder = readDecoder(*decoder);
    return std::make_shared<const TokenizerPipeline>(std::move(parts));
}

} // namespace

std::shared_ptr<const TokenizerPipeline> TokenizerLoader::load(const QByteArray& json,
                                                               const QString& origin) {
    try {
        return loadJson(json);
    } catch (const TokenizerError& e) {
        throw TokenizerError(origin.toStdString() + ": " + e.what());
    } catch (const Json::exception& e) {
        // A value of an unexpected JSON type that the checks above did not anticipate.
        throw TokenizerError(origin.toStdString() + ": malformed tokenizer.json: " + e.what());
    }
}

} // namespace sahaj::text
