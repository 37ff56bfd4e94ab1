#include "core/model/AlbertParameterLayout.h"

#include "core/optim/ParameterInitializer.h"

#include <numeric>

namespace sahaj::model {

namespace {

using Rule = optim::InitialValueRule;

class LayoutBuilder {
public:
    explicit LayoutBuilder(double std) : normal_{Rule::Kind::Normal, std, 0.0, std::nullopt, 0} {}

    void linear(const std::string& prefix, std::int64_t in, std::int64_t out) {
        add(prefix + ".weight", {out, in}, normal_);
        add(prefix + ".bias", {out}, constant(0.0));
    }
    void layerNorm(const std::string& prefix, std::int64_t size) {
        add(prefix + ".weight", {size}, constant(1.0));
        add(prefix + ".bias", {size}, constant(0.0));
    }
    void embedding(const std::string& prefix, std::int64_t rows, std::int64_t width,
                   std::optional<std::int64_t> paddingRow = std::nullopt) {
        Rule rule = normal_;
        if (paddingRow) {
            rule.zeroRow = static_cast<std::size_t>(*paddingRow);
            rule.rowLength = static_cast<std::size_t>(width);
        }
        add(prefix + ".weight", {rows, width}, rule);
    }
    void add(std::string name, std::vector<std::int64_t> shape, Rule rule) {
        entries_.push_back({std::move(name), std::move(shape), rule});
    }
    static Rule constant(double value) { return Rule{Rule::Kind::Constant, 0.0, value, std::nullopt, 0}; }
    std::vector<ParameterLayoutEntry> take() { return std::move(entries_); }

private:
    Rule normal_;
    std::vector<ParameterLayoutEntry> entries_;
};

} // namespace

std::int64_t ParameterLayoutEntry::elements() const {
    return std::accumulate(shape.begin(), shape.end(), std::int64_t{1}, std::multiplies<>());
}

std::vector<ParameterLayoutEntry> AlbertParameterLayout::of(const AlbertConfig& config) {
    config.validate();
    const std::int64_t V = config.vocabSize, E = config.embeddingSize, H = config.hiddenSize,
                       I = config.intermediateSize;
    LayoutBuilder layout(config.initializerRange);
    // libtorch lists a module's own parameters, then its children's in the order they were registered
    // (core/model/Albert*.cpp register them in Hugging Face's order).
    layout.embedding("albert.embeddings.word_embeddings", V, E, config.padTokenId);
    layout.embedding("albert.embeddings.position_embeddings", config.maxPositionEmbeddings, E);
    layout.embedding("albert.embeddings.token_type_embeddings", config.typeVocabSize, E);
    layout.layerNorm("albert.embeddings.LayerNorm", E);
    layout.linear("albert.encoder.embedding_hidden_mapping_in", E, H);
    for (std::int64_t group = 0; group < config.numHiddenGroups; ++group) {
        for (std::int64_t inner = 0; inner < config.innerGroupNum; ++inner) {
            const std::string layer = "albert.encoder.albert_layer_groups." + std::to_string(group) +
                                      ".albert_layers." + std::to_string(inner);
            layout.layerNorm(layer + ".full_layer_layer_norm", H);
            for (const char* projection : {"query", "key", "value", "dense"})
                layout.linear(layer + ".attention." + projection, H, H);
            layout.layerNorm(layer + ".attention.LayerNorm", H);
            layout.linear(layer + ".ffn", H, I);
            layout.linear(layer + ".ffn_output", I, H);
        }
    }
    layout.linear("albert.pooler", H, H);
    layout.add("predictions.bias", {V}, LayoutBuilder::constant(0.0));
    layout.layerNorm("predictions.LayerNorm", E);
    layout.linear("predictions.dense", H, E);
    layout.linear("sop_classifier.classifier", H, 2);
    return layout.take();
}

std::int64_t AlbertParameterLayout::elements(const std::vector<ParameterLayoutEntry>& layout) {
    std::int64_t total = 0;
    for (const ParameterLayoutEntry& entry : layout)
        total += entry.elements();
    return total;
}

std::vector<float> AlbertParameterLayout::initialValues(const std::vector<ParameterLayoutEntry>& layout,
                                                        std::uint64_t seed) {
    std::vector<float> values(static_cast<std::size_t>(elements(layout)));
    std::size_t offset = 0;
    for (const ParameterLayoutEntry& entry : layout) {
        const auto count = static_cast<std::size_t>(entry.elements());
        optim::ParameterInitializer::fill(std::span<float>(values.data() + offset, count), entry.initialValue,
                                          seed, entry.name);
        offset += count;
    }
    return values;
}

} // namespace sahaj::model
