#pragma once

// Small hand-made tokenizer.json documents for tests: a Unigram vocabulary whose scores are chosen so
// that the best segmentation is known, plus switches for each pipeline component.
#include <QByteArray>

#include <nlohmann/json.hpp>

namespace sahaj::text::testing {

using Json = nlohmann::json;

// Vocabulary: specials 0-4, then pieces with scores (log-probabilities).
inline Json tinyVocab() {
    return Json::array({
        {"<pad>", 0.0}, {"<unk>", 0.0}, {"[CLS]", 0.0}, {"[SEP]", 0.0}, {"[MASK]", 0.0},
        {"▁", -2.0},    {"a", -3.0},    {"b", -3.0},    {"c", -3.0},    {"ab", -4.0},
        {"▁ab", -3.5},  {"abc", -7.5},  {"bc", -4.0},   {"▁c", -3.0},   {"1", -3.0},
        {"2", -3.0},    {".", -3.0},    {"▁a", -3.2},   {"x", -3.0},    {"😀", -5.0},
    });
}

inline Json tinyAddedTokens() {
    return Json::array({
        {{"id", 0}, {"content", "<pad>"}, {"special", true}, {"normalized", false}},
        {{"id", 1}, {"content", "<unk>"}, {"special", true}, {"normalized", false}},
        {{"id", 2}, {"content", "[CLS]"}, {"special", true}, {"normalized", false}},
        {{"id", 3}, {"content", "[SEP]"}, {"special", true}, {"normalized", false}},
        {{"id", 4}, {"content", "[MASK]"}, {"special", true}, {"normalized", true}, {"lstrip", true}},
    });
}

inline Json metaspace(const char* type = "Metaspace") {
    return {{"type", type}, {"replacement", "▁"}, {"prepend_scheme", "always"}, {"split", true}};
}

inline Json cls_a_sep_b_sep() {
    return {{"type", "TemplateProcessing"},
            {"single", Json::array({{{"SpecialToken", {{"id", "[CLS]"}, {"type_id", 0}}}},
                                    {{"Sequence", {{"id", "A"}, {"type_id", 0}}}},
                                    {{"SpecialToken", {{"id", "[SEP]"}, {"type_id", 0}}}}})},
            {"pair", Json::array({{{"SpecialToken", {{"id", "[CLS]"}, {"type_id", 0}}}},
                                  {{"Sequence", {{"id", "A"}, {"type_id", 0}}}},
                                  {{"SpecialToken", {{"id", "[SEP]"}, {"type_id", 0}}}},
                                  {{"Sequence", {{"id", "B"}, {"type_id", 1}}}},
                                  {{"SpecialToken", {{"id", "[SEP]"}, {"type_id", 1}}}}})},
            {"special_tokens",
             {{"[CLS]", {{"id", "[CLS]"}, {"ids", {2}}, {"tokens", {"[CLS]"}}}},
              {"[SEP]", {{"id", "[SEP]"}, {"ids", {3}}, {"tokens", {"[SEP]"}}}}}}};
}

// A complete small tokenizer: lowercase normalizer, Metaspace + Digits + Punctuation, the template.
inline Json tinyTokenizer() {
    return {
        {"version", "1.0"},
        {"truncation", nullptr},
        {"padding", nullptr},
        {"added_tokens", tinyAddedTokens()},
        {"normalizer",
         {{"type", "Sequence"}, {"normalizers", Json::array({{{"type", "Nmt"}}, {{"type", "Lowercase"}}})}}},
        {"pre_tokenizer",
         {{"type", "Sequence"},
          {"pretokenizers", Json::array({metaspace(),
                                         {{"type", "Digits"}, {"individual_digits", true}},
                                         {{"type", "Punctuation"}}})}}},
        {"post_processor", cls_a_sep_b_sep()},
        {"decoder", metaspace()},
        {"model", {{"type", "Unigram"}, {"unk_id", 1}, {"vocab", tinyVocab()}}}};
}

inline QByteArray toBytes(const Json& json) {
    const std::string text = json.dump();
    return QByteArray(text.data(), qsizetype(text.size()));
}

} // namespace sahaj::text::testing
