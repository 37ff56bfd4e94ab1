#include "core/text/TokenizerJsonWriter.h"

#include <nlohmann/json.hpp>

#include <set>
#include <stdexcept>

namespace sahaj::text {

namespace {

using OrderedJson = nlohmann::ordered_json;

// The pipeline sections of the sahajBERT tokenizer.json (DeDLOC, Apache-2.0), unchanged. Only these
// small sections are embedded; the vocabulary comes from training.
constexpr const char* kPipeline = R"json({
  "added_tokens": [
    {"id": 0, "special": true, "content": "<pad>", "single_word": false, "lstrip": false, "rstrip": false, "normalized": false},
    {"id": 1, "special": true, "content": "<unk>", "single_word": false, "lstrip": false, "rstrip": false, "normalized": false},
    {"id": 2, "special": true, "content": "[CLS]", "single_word": false, "lstrip": false, "rstrip": false, "normalized": false},
    {"id": 3, "special": true, "content": "[SEP]", "single_word": false, "lstrip": false, "rstrip": false, "normalized": false},
    {"id": 4, "special": true, "content": "[MASK]", "single_word": false, "lstrip": true, "rstrip": false, "normalized": true}
  ],
  "normalizer": {"type": "Sequence", "normalizers": [
    {"type": "Nmt"},
    {"type": "NFKC"},
    {"type": "Replace", "pattern": {"Regex": " {2,}"}, "content": " "},
    {"type": "Replace", "pattern": {"String": "\u09e4"}, "content": "\u0964"},
    {"type": "Replace", "pattern": {"String": "\u09e5"}, "content": "\u0965"},
    {"type": "Replace", "pattern": {"String": "|"}, "content": "\u0964"},
    {"type": "Replace", "pattern": {"String": "\u09f7"}, "content": "\u0964"},
    {"type": "Replace", "pattern": {"Regex": "(?<=[\\u0980-\\u09ff]):"}, "content": "\u0983"},
    {"type": "Lowercase"}
  ]},
  "pre_tokenizer": {"type": "Sequence", "pretokenizers": [
    {"type": "Metaspace", "replacement": "\u2581", "add_prefix_space": true},
    {"type": "Digits", "individual_digits": true},
    {"type": "Punctuation"}
  ]},
  "post_processor": {"type": "TemplateProcessing",
    "single": [{"SpecialToken": {"id": "[CLS]", "type_id": 0}}, {"Sequence": {"id": "A", "type_id": 0}},
               {"SpecialToken": {"id": "[SEP]", "type_id": 0}}],
    "pair": [{"SpecialToken": {"id": "[CLS]", "type_id": 0}}, {"Sequence": {"id": "A", "type_id": 0}},
             {"SpecialToken": {"id": "[SEP]", "type_id": 0}}, {"Sequence": {"id": "B", "type_id": 1}},
             {"SpecialToken": {"id": "[SEP]", "type_id": 1}}],
    "special_tokens": {"[CLS]": {"id": "[CLS]", "ids": [2], "tokens": ["[CLS]"]},
                       "[SEP]": {"id": "[SEP]", "ids": [3], "tokens": ["[SEP]"]}}},
  "decoder": {"type": "Metaspace", "replacement": "\u2581", "add_prefix_space": true}
})json";

} // namespace

std::vector<TokenizerJsonWriter::Piece> TokenizerJsonWriter::specialPieces() {
    return {{"<pad>", 0.0}, {"<unk>", 0.0}, {"[CLS]", 0.0}, {"[SEP]", 0.0}, {"[MASK]", 0.0}};
}

QByteArray TokenizerJsonWriter::write(const std::vector<Piece>& pieces) {
    const std::vector<Piece> specials = specialPieces();
    if (pieces.size() <= specials.size())
        throw std::invalid_argument("tokenizer.json: the vocabulary needs pieces besides the special tokens");
    for (std::size_t i = 0; i < specials.size(); ++i) {
        if (pieces[i].first != specials[i].first)
            throw std::invalid_argument("tokenizer.json: vocabulary entry " + std::to_string(i) +
                                        " must be " + specials[i].first + ", got " + pieces[i].first);
    }
    std::set<std::string> seen;
    OrderedJson vocab = OrderedJson::array();
    for (const auto& [piece, score] : pieces) {
        if (piece.empty())
            throw std::invalid_argument("tokenizer.json: empty vocabulary piece");
        if (!seen.insert(piece).second)
            throw std::invalid_argument("tokenizer.json: duplicate vocabulary piece '" + piece + "'");
        vocab.push_back(OrderedJson::array({piece, score}));
    }

    const OrderedJson pipeline = OrderedJson::parse(kPipeline);
    OrderedJson json;
    // Key order as the tokenizers library writes it.
    json["version"] = "1.0";
    json["truncation"] = nullptr;
    json["padding"] = nullptr;
    json["added_tokens"] = pipeline["added_tokens"];
    json["normalizer"] = pipeline["normalizer"];
    json["pre_tokenizer"] = pipeline["pre_tokenizer"];
    json["post_processor"] = pipeline["post_processor"];
    json["decoder"] = pipeline["decoder"];
    json["model"] = OrderedJson{{"type", "Unigram"}, {"unk_id", 1}, {"vocab", std::move(vocab)}};
    const std::string text = json.dump(2, ' ', false, OrderedJson::error_handler_t::strict) + "\n";
    return QByteArray::fromStdString(text);
}

QByteArray TokenizerJsonWriter::pipelineOnly() {
    std::vector<Piece> pieces = specialPieces();
    pieces.emplace_back("\xE2\x96\x81", 0.0); // "▁"
    return write(pieces);
}

} // namespace sahaj::text
