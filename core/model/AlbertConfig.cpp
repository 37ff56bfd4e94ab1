#include "core/model/AlbertConfig.h"

#include "core/array/AtomicFile.h"
#include "core/model/HiddenActivationName.h"

#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>
#include <stdexcept>

namespace sahaj::model {

namespace {

// Hugging Face's AlbertConfig defaults (the xxlarge sizes): a config.json that omits a key means these.
AlbertConfig huggingFaceDefaults() {
    AlbertConfig c;
    c.vocabSize = 30000;
    c.embeddingSize = 128;
    c.hiddenSize = 4096;
    c.numHiddenLayers = 12;
    c.numHiddenGroups = 1;
    c.numAttentionHeads = 64;
    c.intermediateSize = 16384;
    c.innerGroupNum = 1;
    c.hiddenAct = "gelu_new";
    c.hiddenDropoutProb = 0.0;
    c.attentionProbsDropoutProb = 0.0;
    c.maxPositionEmbeddings = 512;
    c.typeVocabSize = 2;
    c.initializerRange = 0.02;
    c.layerNormEps = 1e-12;
    c.classifierDropoutProb = 0.1;
    c.padTokenId = 0;
    c.bosTokenId = 2;
    c.eosTokenId = 3;
    return c;
}

std::string typeName(const nlohmann::json& value) {
    return value.type_name();
}

// The parameter count in floating point: validate() uses it to refuse absurd configs before the exact
// integer count (which could overflow for them) is computed.
long double approximateParameterCount(const AlbertConfig& c) {
    const long double V = c.vocabSize, E = c.embeddingSize, H = c.hiddenSize, I = c.intermediateSize;
    const long double layer = 4 * (H * H + H) + 2 * H + (H * I + I) + (I * H + H) + 2 * H;
    return (V + c.maxPositionEmbeddings + c.typeVocabSize) * E + 2 * E + E * H + H +
           static_cast<long double>(c.numHiddenGroups) * c.innerGroupNum * layer + H * H + H + V + H * E +
           3 * E + 2 * H + 2;
}

void readInteger(const nlohmann::json& json, const char* key, std::int64_t& target) {
    const auto it = json.find(key);
    if (it == json.end())
        return;
    if (!it->is_number_integer())
        throw std::invalid_argument(std::string("\"") + key + "\" must be an integer, got " + typeName(*it) +
                                    " " + it->dump());
    target = it->get<std::int64_t>();
}

void readReal(const nlohmann::json& json, const char* key, double& target) {
    const auto it = json.find(key);
    if (it == json.end() || it->is_null()) // transformers writes null for an unset classifier dropout
        return;
    if (!it->is_number())
        throw std::invalid_argument(std::string("\"") + key + "\" must be a number, got " + typeName(*it) +
                                    " " + it->dump());
    target = it->get<double>();
}

void readTokenId(const nlohmann::json& json, const char* key, std::optional<std::int64_t>& target) {
    const auto it = json.find(key);
    if (it == json.end())
        return;
    if (it->is_null()) {
        target.reset();
        return;
    }
    if (!it->is_number_integer())
        throw std::invalid_argument(std::string("\"") + key + "\" must be an integer or null, got " +
                                    typeName(*it) + " " + it->dump());
    target = it->get<std::int64_t>();
}

void readString(const nlohmann::json& json, const char* key, std::string& target) {
    const auto it = json.find(key);
    if (it == json.end())
        return;
    if (!it->is_string())
        throw std::invalid_argument(std::string("\"") + key + "\" must be a string, got " + typeName(*it) +
                                    " " + it->dump());
    target = it->get<std::string>();
}

nlohmann::json tokenIdJson(const std::optional<std::int64_t>& id) {
    return id ? nlohmann::json(*id) : nlohmann::json(nullptr);
}

} // namespace

std::vector<std::string> AlbertConfig::knownNames() {
    return {"sahajbert", "small", "tiny"};
}

AlbertConfig AlbertConfig::named(std::string_view name) {
    AlbertConfig c; // the member defaults are ALBERT-large v2 with the sahajBERT vocabulary
    if (name == "sahajbert")
        return c;
    if (name == "small") {
        c.hiddenSize = 256;
        c.numAttentionHeads = 4;
        c.intermediateSize = 1024;
        c.numHiddenLayers = 12;
        return c;
    }
    if (name == "tiny") {
        // The vocabulary stays at 32,000 so that the real sahajBERT tokenizer's ids fit.
        c.hiddenSize = 32;
        c.numAttentionHeads = 2;
        c.intermediateSize = 64;
        c.numHiddenLayers = 2;
        c.embeddingSize = 16;
        c.maxPositionEmbeddings = 128;
        return c;
    }
    std::string known;
    for (const auto& n : knownNames())
        known += (known.empty() ? "" : ", ") + n;
    throw std::invalid_argument("unknown model config name '" + std::string(name) + "' (known: " + known +
                                ")");
}

AlbertConfig AlbertConfig::fromJson(const nlohmann::json& json) {
    if (!json.is_object())
        throw std::invalid_argument("a model config must be a JSON object, got " + typeName(json));
    if (const auto it = json.find("model_type"); it != json.end()) {
        if (!it->is_string() || it->get<std::string>() != "albert")
            throw std::invalid_argument("\"model_type\" must be \"albert\", got " + it->dump());
    }
    if (const auto it = json.find("position_embedding_type"); it != json.end()) {
        if (!it->is_string() || it->get<std::string>() != "absolute")
            throw std::invalid_argument("\"position_embedding_type\" " + it->dump() +
                                        " is not supported (only \"absolute\")");
    }
    AlbertConfig c = huggingFaceDefaults();
    readInteger(json, "vocab_size", c.vocabSize);
    readInteger(json, "embedding_size", c.embeddingSize);
    readInteger(json, "hidden_size", c.hiddenSize);
    readInteger(json, "num_hidden_layers", c.numHiddenLayers);
    readInteger(json, "num_hidden_groups", c.numHiddenGroups);
    readInteger(json, "num_attention_heads", c.numAttentionHeads);
    readInteger(json, "intermediate_size", c.intermediateSize);
    readInteger(json, "inner_group_num", c.innerGroupNum);
    readString(json, "hidden_act", c.hiddenAct);
    readReal(json, "hidden_dropout_prob", c.hiddenDropoutProb);
    readReal(json, "attention_probs_dropout_prob", c.attentionProbsDropoutProb);
    readInteger(json, "max_position_embeddings", c.maxPositionEmbeddings);
    readInteger(json, "type_vocab_size", c.typeVocabSize);
    readReal(json, "initializer_range", c.initializerRange);
    readReal(json, "layer_norm_eps", c.layerNormEps);
    readReal(json, "classifier_dropout_prob", c.classifierDropoutProb);
    readTokenId(json, "pad_token_id", c.padTokenId);
    readTokenId(json, "bos_token_id", c.bosTokenId);
    readTokenId(json, "eos_token_id", c.eosTokenId);
    c.validate();
    return c;
}

nlohmann::json AlbertConfig::toJson() const {
    validate();
    // nlohmann::json keeps keys sorted, as transformers writes them (json.dumps(..., sort_keys=True)).
    return nlohmann::json{
        {"architectures", {"AlbertForPreTraining"}},
        {"model_type", "albert"},
        {"vocab_size", vocabSize},
        {"embedding_size", embeddingSize},
        {"hidden_size", hiddenSize},
        {"num_hidden_layers", numHiddenLayers},
        {"num_hidden_groups", numHiddenGroups},
        {"num_attention_heads", numAttentionHeads},
        {"intermediate_size", intermediateSize},
        {"inner_group_num", innerGroupNum},
        {"hidden_act", hiddenAct},
        {"hidden_dropout_prob", hiddenDropoutProb},
        {"attention_probs_dropout_prob", attentionProbsDropoutProb},
        {"max_position_embeddings", maxPositionEmbeddings},
        {"type_vocab_size", typeVocabSize},
        {"initializer_range", initializerRange},
        {"layer_norm_eps", layerNormEps},
        {"classifier_dropout_prob", classifierDropoutProb},
        {"position_embedding_type", "absolute"},
        {"pad_token_id", tokenIdJson(padTokenId)},
        {"bos_token_id", tokenIdJson(bosTokenId)},
        {"eos_token_id", tokenIdJson(eosTokenId)},
    };
}

nlohmann::json AlbertConfig::readJsonFile(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw std::runtime_error("cannot open model config '" + path.string() + "'");
    std::stringstream text;
    text << in.rdbuf();
    if (in.bad())
        throw std::runtime_error("cannot read model config '" + path.string() + "'");
    try {
        return nlohmann::json::parse(text.str());
    } catch (const nlohmann::json::exception& e) {
        // Syntax errors, and numbers no double holds (out_of_range: "1e400"), which are not parse_errors.
        throw std::runtime_error("model config '" + path.string() + "' is not valid JSON: " + e.what());
    }
}

AlbertConfig AlbertConfig::loadFile(const std::filesystem::path& path) {
    const nlohmann::json json = readJsonFile(path);
    try {
        return fromJson(json);
    } catch (const std::invalid_argument& e) {
        throw std::invalid_argument("model config '" + path.string() + "': " + e.what());
    }
}

void AlbertConfig::saveFile(const std::filesystem::path& path) const {
    array::AtomicFile::write(path, toJson().dump(2) + "\n");
}

void AlbertConfig::validate() const {
    // Each size is bounded so that products of two sizes (weight matrices) cannot overflow 64 bits and
    // a mistyped config fails here instead of in a huge allocation.
    constexpr std::int64_t kMaxSize = std::int64_t{1} << 24;
    std::vector<std::string> problems;
    const auto checkSize = [&](const char* key, std::int64_t value) {
        if (value <= 0 || value > kMaxSize)
            problems.push_back(std::string(key) + " must be in [1, " + std::to_string(kMaxSize) + "], got " +
                               std::to_string(value));
    };
    checkSize("vocab_size", vocabSize);
    checkSize("embedding_size", embeddingSize);
    checkSize("hidden_size", hiddenSize);
    checkSize("num_hidden_layers", numHiddenLayers);
    checkSize("num_hidden_groups", numHiddenGroups);
    checkSize("num_attention_heads", numAttentionHeads);
    checkSize("intermediate_size", intermediateSize);
    checkSize("inner_group_num", innerGroupNum);
    checkSize("max_position_embeddings", maxPositionEmbeddings);
    checkSize("type_vocab_size", typeVocabSize);
    if (hiddenSize > 0 && numAttentionHeads > 0 && hiddenSize % numAttentionHeads != 0)
        problems.push_back("hidden_size (" + std::to_string(hiddenSize) +
                           ") must be a multiple of num_attention_heads (" +
                           std::to_string(numAttentionHeads) + ")");
    // Hugging Face maps layer i to group floor(i * groups / layers): more groups than layers would leave
    // groups that no layer uses (weights that never train).
    if (numHiddenGroups > numHiddenLayers && numHiddenLayers > 0)
        problems.push_back("num_hidden_groups (" + std::to_string(numHiddenGroups) +
                           ") must not exceed num_hidden_layers (" + std::to_string(numHiddenLayers) + ")");
    if (!HiddenActivationName::isSupported(hiddenAct))
        problems.push_back("hidden_act '" + hiddenAct +
                           "' is not supported (supported: " + HiddenActivationName::supportedNames() + ")");
    const auto checkProbability = [&](const char* key, double value) {
        if (!(value >= 0.0 && value < 1.0))
            problems.push_back(std::string(key) + " must be in [0, 1), got " + std::to_string(value));
    };
    checkProbability("hidden_dropout_prob", hiddenDropoutProb);
    checkProbability("attention_probs_dropout_prob", attentionProbsDropoutProb);
    checkProbability("classifier_dropout_prob", classifierDropoutProb);
    if (!(initializerRange > 0.0 && initializerRange < 10.0))
        problems.push_back("initializer_range must be in (0, 10), got " + std::to_string(initializerRange));
    if (!(layerNormEps > 0.0 && layerNormEps < 1.0))
        problems.push_back("layer_norm_eps must be in (0, 1), got " + std::to_string(layerNormEps));
    const auto checkTokenId = [&](const char* key, const std::optional<std::int64_t>& id) {
        if (id && (*id < 0 || *id >= vocabSize))
            problems.push_back(std::string(key) + " " + std::to_string(*id) +
                               " is outside the vocabulary [0, " + std::to_string(vocabSize) + ")");
    };
    checkTokenId("pad_token_id", padTokenId);
    checkTokenId("bos_token_id", bosTokenId);
    checkTokenId("eos_token_id", eosTokenId);
    constexpr long double kMaxParameters = 1e11;
    if (problems.empty() && approximateParameterCount(*this) > kMaxParameters)
        problems.push_back("the config describes about " +
                           std::to_string(static_cast<double>(approximateParameterCount(*this))) +
                           " parameters, more than the supported 1e11");
    if (problems.empty())
        return;
    std::string message = "invalid model config: ";
    for (std::size_t i = 0; i < problems.size(); ++i)
        message += (i ? "; " : "") + problems[i];
    throw std::invalid_argument(message);
}

std::int64_t AlbertConfig::parameterCount() const {
    validate();
    const std::int64_t V = vocabSize, E = embeddingSize, H = hiddenSize, I = intermediateSize;
    const std::int64_t embeddings = (vocabSize + maxPositionEmbeddings + typeVocabSize) * E + 2 * E;
    const std::int64_t mappingIn = E * H + H;
    const std::int64_t attention = 4 * (H * H + H) + 2 * H;
    const std::int64_t feedForward = (H * I + I) + (I * H + H) + 2 * H;
    const std::int64_t layers = numHiddenGroups * innerGroupNum * (attention + feedForward);
    const std::int64_t pooler = H * H + H;
    // The decoder's weight and bias are the word embeddings and predictions.bias: counted once.
    const std::int64_t mlmHead = V + (H * E + E) + 2 * E;
    const std::int64_t sopHead = 2 * H + 2;
    return embeddings + mappingIn + layers + pooler + mlmHead + sopHead;
}

} // namespace sahaj::model
