#include "core/text/TokenizerTrie.h"

#include <algorithm>
#include <numeric>

namespace sahaj::text {

TokenizerTrie::TokenizerTrie(const std::vector<QString>& keys, const std::vector<int>& values) {
    // Insert the keys in sorted order: a node's children are then created in label order, so the
    // flattened edge lists come out sorted without a separate pass. Equal keys keep input order
    // (stable sort), so the later value overwrites the earlier one.
    std::vector<std::size_t> order(keys.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(), [&keys](std::size_t a, std::size_t b) {
        return QStringView(keys[a]).compare(QStringView(keys[b]), Qt::CaseSensitive) < 0;
    });
    // compare() orders by UTF-16 code units, which is what the edge lists are sorted by.

    struct BuildNode {
        std::vector<std::pair<char16_t, std::int32_t>> children;
        std::int32_t value = -1;
    };
    std::vector<BuildNode> build(1);
    for (const std::size_t index : order) {
        const QString& key = keys[index];
        if (key.isEmpty())
            continue;
        std::int32_t node = 0;
        for (const QChar unit : key) {
            auto& children = build[node].children;
            if (!children.empty() && children.back().first == unit.unicode()) {
                node = children.back().second;
                continue;
            }
            const auto next = std::int32_t(build.size());
            children.emplace_back(unit.unicode(), next);
            build.emplace_back();
            node = next;
        }
        build[node].value = values[index];
    }

    nodes_.resize(build.size());
    rootChildren_.assign(0x10000, 0);
    for (const auto& [label, target] : build[0].children)
        rootChildren_[label] = target;
    for (std::size_t i = 0; i < build.size(); ++i) {
        nodes_[i].value = build[i].value;
        if (i == 0)
            continue; // the root's children live in the dense table
        nodes_[i].firstEdge = std::int32_t(edges_.size());
        nodes_[i].edgeCount = std::int32_t(build[i].children.size());
        for (const auto& [label, target] : build[i].children)
            edges_.push_back({label, target});
    }
}

} // namespace sahaj::text
