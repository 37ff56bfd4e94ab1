#include "core/text/SentencePieceModelProto.h"

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string_view>

namespace sahaj::text {

namespace {

// Protocol-buffer wire format: each field is a varint key (number << 3 | wire type) and a value.
class WireReader {
public:
    explicit WireReader(std::string_view data) : data_(data) {}
    bool atEnd() const { return position_ >= data_.size(); }

    std::uint64_t varint() {
        std::uint64_t value = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            const auto byte = static_cast<std::uint8_t>(take(1).front());
            value |= static_cast<std::uint64_t>(byte & 0x7f) << shift;
            if (!(byte & 0x80))
                return value;
        }
        throw std::runtime_error("sentencepiece model: malformed varint");
    }
    std::string_view bytes() { return take(static_cast<std::size_t>(varint())); }
    std::string_view take(std::size_t count) {
        if (count > data_.size() - position_)
            throw std::runtime_error("sentencepiece model: truncated data");
        const std::string_view out = data_.substr(position_, count);
        position_ += count;
        return out;
    }
    void skip(unsigned wireType) {
        switch (wireType) {
        case 0:
            varint();
            return;
        case 1:
            take(8);
            return;
        case 2:
            bytes();
            return;
        case 5:
            take(4);
            return;
        default:
            throw std::runtime_error("sentencepiece model: unsupported wire type " +
                                     std::to_string(wireType));
        }
    }

private:
    std::string_view data_;
    std::size_t position_ = 0;
};

SentencePieceModelProto::Piece readPiece(std::string_view message) {
    SentencePieceModelProto::Piece piece;
    WireReader reader(message);
    while (!reader.atEnd()) {
        const std::uint64_t key = reader.varint();
        const auto field = key >> 3;
        const auto wireType = static_cast<unsigned>(key & 7);
        if (field == 1 && wireType == 2) {
            piece.piece = std::string(reader.bytes());
        } else if (field == 2 && wireType == 5) {
            const std::string_view raw = reader.take(4);
            std::uint32_t bits = 0;
            for (int i = 3; i >= 0; --i) // little-endian on the wire
                bits = (bits << 8) | static_cast<std::uint8_t>(raw[static_cast<std::size_t>(i)]);
            std::memcpy(&piece.score, &bits, sizeof bits);
        } else if (field == 3 && wireType == 0) {
            piece.type = static_cast<SentencePieceModelProto::PieceType>(reader.varint());
        } else {
            reader.skip(wireType);
        }
    }
    return piece;
}

} // namespace

std::vector<SentencePieceModelProto::Piece> SentencePieceModelProto::pieces(const std::string& serialized) {
    std::vector<Piece> out;
    WireReader reader(serialized);
    while (!reader.atEnd()) {
        const std::uint64_t key = reader.varint();
        const auto wireType = static_cast<unsigned>(key & 7);
        if ((key >> 3) == 1 && wireType == 2) // repeated SentencePiece pieces = 1
            out.push_back(readPiece(reader.bytes()));
        else
            reader.skip(wireType);
    }
    if (out.empty())
        throw std::runtime_error("sentencepiece model: no pieces");
    return out;
}

} // namespace sahaj::text
