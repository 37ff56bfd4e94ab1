#pragma once

#include "core/text/Normalizer.h"

#include <memory>
#include <vector>

namespace sahaj::text {

// The "Sequence" normalizer: its steps one after the other.
class NormalizerSequence : public Normalizer {
public:
    explicit NormalizerSequence(std::vector<std::unique_ptr<const Normalizer>> steps)
        : steps_(std::move(steps)) {}
    void normalize(QString& text) const override;

private:
    std::vector<std::unique_ptr<const Normalizer>> steps_;
};

} // namespace sahaj::text
