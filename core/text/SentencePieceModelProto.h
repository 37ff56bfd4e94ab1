#pragma once

#include <string>
#include <vector>

namespace sahaj::text {

// Reads the vocabulary out of a serialized sentencepiece ModelProto. Only the `pieces` field is
// needed, and its wire format is small and stable, so it is decoded here rather than through
// sentencepiece's generated protobuf classes (the trainer runs as a separate process, see
// SentencePieceTrainerProcess, so this process links neither sentencepiece nor its protobuf copy).
class SentencePieceModelProto {
public:
    enum class PieceType { Normal = 1, Unknown = 2, Control = 3, UserDefined = 4, Unused = 5, Byte = 6 };
    struct Piece {
        std::string piece;
        float score = 0.0f;
        PieceType type = PieceType::Normal;
    };

    // Throws std::runtime_error when the bytes are not a well-formed ModelProto.
    static std::vector<Piece> pieces(const std::string& serialized);
};

} // namespace sahaj::text
