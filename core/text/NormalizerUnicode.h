#pragma once

#include "core/text/Normalizer.h"

namespace sahaj::text {

// The NFC, NFD, NFKC and NFKD normalizers. Qt's normalization pinned to Unicode 9.0: Hugging Face
// tokenizers normalizes with the unicode-normalization-alignments crate, whose tables are Unicode 9.0,
// so characters added later (e.g. SQUARE ERA NAME REIWA, 12.1) must stay as they are.
class NormalizerUnicode : public Normalizer {
public:
    explicit NormalizerUnicode(QString::NormalizationForm form) : form_(form) {}
    void normalize(QString& text) const override;

private:
    QString::NormalizationForm form_;
};

} // namespace sahaj::text
