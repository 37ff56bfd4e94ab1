#pragma once

#include <zmq.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace sahaj::fuzz {

// How one fuzz input of the wire target stands for the ZeroMQ frames of one message: the first byte is
// the frame count (modulo 4, so that no frames and one frame too many stay reachable), then, per frame,
// a 4-byte little-endian length and that many bytes. A length past the end of the input takes what is
// left; bytes after the last frame are ignored. Seeds (wire_seed_writer) and the fuzz target
// (wire_message_fuzzer) share this so that they agree on the layout and on the run id.
class WireFuzzInput {
public:
    // The run every seed message belongs to and the fuzz target decodes for.
    static constexpr const char* kRunId = "fuzz-run";

    static std::vector<zmq::message_t> split(const std::uint8_t* data, std::size_t size);
    static std::string join(const std::vector<zmq::message_t>& frames);
};

} // namespace sahaj::fuzz
