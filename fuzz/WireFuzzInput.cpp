#include "fuzz/WireFuzzInput.h"

#include "core/net/WireLimits.h"

#include <algorithm>

namespace sahaj::fuzz {

namespace {

constexpr std::size_t kFrameCounts = net::WireLimits::kMaxFrames + 2;

} // namespace

std::vector<zmq::message_t> WireFuzzInput::split(const std::uint8_t* data, std::size_t size) {
    std::vector<zmq::message_t> frames;
    if (size == 0)
        return frames;
    const std::size_t count = data[0] % kFrameCounts;
    std::size_t position = 1;
    for (std::size_t i = 0; i < count; ++i) {
        std::size_t length = 0;
        for (std::size_t b = 0; b < 4 && position < size; ++b, ++position)
            length |= std::size_t{data[position]} << (8 * b);
        length = std::min(length, size - position);
        frames.emplace_back(data + position, length);
        position += length;
    }
    return frames;
}

std::string WireFuzzInput::join(const std::vector<zmq::message_t>& frames) {
    std::string bytes(1, static_cast<char>(frames.size() % kFrameCounts));
    for (const zmq::message_t& frame : frames) {
        for (std::size_t b = 0; b < 4; ++b)
            bytes.push_back(static_cast<char>((frame.size() >> (8 * b)) & 0xff));
        bytes.append(static_cast<const char*>(frame.data()), frame.size());
    }
    return bytes;
}

} // namespace sahaj::fuzz
