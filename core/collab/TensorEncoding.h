#pragma once

#include "core/net/protocol.pb.h"

#include <zmq.hpp>

#include <cstdint>

namespace sahaj::collab {

// How values travel: fp32, fp16 (the default, as sahajBERT trained), or 8-bit blockwise quantisation
// (each block of `block` values as bytes q with value = offset + q·scale, the block's scale and offset as
// two float32 after all the bytes). encode() and decode() are exact inverses of the rounding that
// roundTrip() applies, so an aggregator that keeps roundTrip()'d values for its own span holds exactly
// what every other member decodes.
class TensorEncoding {
public:
    // Throws std::invalid_argument for an unknown dtype or a bad block size.
    static zmq::message_t encode(const float* values, std::int64_t count, const wire::Encoding& encoding);
    // `frame` must hold exactly MessageValidator::encodedBytes(encoding, count) bytes (checked on arrival).
    // Non-finite decoded values throw std::runtime_error: a part with NaN or infinity is rejected.
    static void decode(const zmq::message_t& frame, std::int64_t count, const wire::Encoding& encoding,
                       float* out);
    // Rounds values in place to what encode + decode would give.
    static void roundTrip(float* values, std::int64_t count, const wire::Encoding& encoding);

    // Wire bytes per value (the load balancer counts values, links carry bytes); 8-bit blocks count their
    // scale and offset too.
    static double bytesPerValue(const wire::Encoding& encoding);

    static wire::Encoding fp16();
    static wire::Encoding fp32();
    static wire::Encoding uint8Blockwise(std::uint32_t block = 4096);
};

} // namespace sahaj::collab
