#pragma once

#include <QJsonObject>
#include <QString>

#include <c10/core/Device.h>

#include <cstdint>
#include <vector>

namespace sahaj::model {
class AlbertForPreTraining;
}
namespace sahaj::text {
class Tokenizer;
}

namespace sahaj::eval {

struct FillMaskCandidate {
    std::int64_t tokenId = 0;
    QString token;    // the vocabulary entry ("▁গান")
    QString text;     // what it decodes to ("গান")
    QString sequence; // the input with this [MASK] replaced by the candidate, decoded
    double probability = 0.0;
};

struct FillMaskPrediction {
    std::int64_t position = 0;                 // token position of the [MASK] in the encoded input
    std::vector<FillMaskCandidate> candidates; // most likely first
};

// What the masked-LM head expects at each [MASK] of a text, like Hugging Face's fill-mask pipeline:
// softmax over the whole vocabulary at that position, the `top` most likely tokens. Each [MASK] is
// predicted independently from the same forward pass (the other masks stay masked).
class FillMask {
public:
    // Throws std::invalid_argument when the text has no [MASK], encodes to more tokens than the model's
    // positions, or top < 1.
    static std::vector<FillMaskPrediction> predict(model::AlbertForPreTraining& model,
                                                   const text::Tokenizer& tokenizer, const QString& text,
                                                   int top, c10::Device device = c10::kCPU);

    static QJsonObject toJson(const QString& text, const std::vector<FillMaskPrediction>& predictions);
};

} // namespace sahaj::eval
