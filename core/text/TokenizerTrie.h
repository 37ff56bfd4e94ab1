#pragma once

#include <QString>
#include <QStringView>

#include <cstdint>
#include <utility>
#include <vector>

namespace sahaj::text {

// A prefix tree over UTF-16 code units that answers "which keys start at this position of the text",
// shortest first, without allocating. The Unigram model asks it at every character of every word and
// the added-token matcher at every character of the input, so lookups are array walks: a dense table
// for the first unit, sorted edge lists below it. Immutable after construction.
class TokenizerTrie {
public:
    TokenizerTrie() = default;
    // keys[i] gets value values[i]; for a key listed twice the later value wins.
    TokenizerTrie(const std::vector<QString>& keys, const std::vector<int>& values);

    bool isEmpty() const { return nodes_.size() <= 1; }

    // Calls visit(lengthInUnits, value) for every key that is a prefix of `text`, shortest first.
    template <class Visit>
    void forEachPrefix(QStringView text, Visit&& visit) const {
        if (text.isEmpty() || nodes_.size() <= 1)
            return;
        std::int32_t node = rootChildren_[text[0].unicode()];
        qsizetype length = 1;
        while (node > 0) {
            const Node& n = nodes_[node];
            if (n.value >= 0)
                visit(length, n.value);
            if (length == text.size() || n.edgeCount == 0)
                return;
            node = child(n, text[length].unicode());
            ++length;
        }
    }

    // The value of the longest key that is a prefix of `text` and its length; {0, -1} when none.
    std::pair<qsizetype, int> longestPrefix(QStringView text) const {
        std::pair<qsizetype, int> best{0, -1};
        forEachPrefix(text, [&best](qsizetype length, int value) { best = {length, value}; });
        return best;
    }

private:
    struct Node {
        std::int32_t firstEdge = 0;
        std::int32_t edgeCount = 0;
        std::int32_t value = -1;
    };
    struct Edge {
        char16_t label;
        std::int32_t target;
    };

    std::int32_t child(const Node& n, char16_t label) const {
        // Edge lists are short below the first character; a binary search keeps the worst case small.
        const Edge* first = edges_.data() + n.firstEdge;
        std::int32_t lo = 0, hi = n.edgeCount;
        while (lo < hi) {
            const std::int32_t mid = (lo + hi) / 2;
            if (first[mid].label < label)
                lo = mid + 1;
            else
                hi = mid;
        }
        return (lo < n.edgeCount && first[lo].label == label) ? first[lo].target : 0;
    }

    // Node 0 is the root; a child index of 0 therefore means "no child".
    std::vector<Node> nodes_;
    std::vector<Edge> edges_;
    std::vector<std::int32_t> rootChildren_;
};

} // namespace sahaj::text
