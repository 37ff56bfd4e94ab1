#pragma once

#include "core/text/PortableRandom.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <utility>
#include <vector>

namespace sahaj::text {

// A fixed-capacity shuffle buffer: it fills up, then every new item replaces a uniformly chosen held
// item, which is handed out. This shuffles a stream of any length with bounded memory; items move
// at most about `capacity` places from where a full shuffle would leave them, which is enough to
// decorrelate neighbouring documents of a corpus. Seeded, so a peer's order is reproducible.
template <typename T>
class ShuffleBuffer {
public:
    ShuffleBuffer(std::size_t capacity, std::uint64_t seed) : capacity_(capacity), random_(seed) {
        if (capacity == 0)
            throw std::invalid_argument("ShuffleBuffer: capacity must be at least 1");
        items_.reserve(capacity < 65536 ? capacity : 65536);
    }

    // Adds an item. While the buffer is filling nothing comes out; once it is full, a held item
    // chosen at random is returned and the new item takes its place.
    std::optional<T> exchange(T item) {
        if (items_.size() < capacity_) {
            items_.push_back(std::move(item));
            return std::nullopt;
        }
        const std::size_t slot = static_cast<std::size_t>(random_.below(items_.size()));
        T out = std::move(items_[slot]);
        items_[slot] = std::move(item);
        return out;
    }

    // Removes and returns a held item chosen at random (to drain the buffer at the end of the input).
    std::optional<T> take() {
        if (items_.empty())
            return std::nullopt;
        const std::size_t slot = static_cast<std::size_t>(random_.below(items_.size()));
        T out = std::move(items_[slot]);
        items_[slot] = std::move(items_.back());
        items_.pop_back();
        return out;
    }

    std::size_t size() const { return items_.size(); }
    std::size_t capacity() const { return capacity_; }
    bool empty() const { return items_.empty(); }

private:
    std::size_t capacity_;
    PortableRandom random_;
    std::vector<T> items_;
};

} // namespace sahaj::text
