#pragma once

#include <QString>

namespace sahaj::node {

// The demo's "before and after": one sentence of its corpus with a word masked, and what a model folder
// predicts for it (`sahaj-node fill-mask`, run in a compute core), so a newcomer sees the model learn the
// text it was trained on, not just a loss falling.
class DemoFillMask {
public:
    // A sentence of `corpus` (the first line of five to twelve words) with its third word masked; empty
    // when the corpus has none. `masked` gets the word it hides.
    static QString sentence(const QString& corpus, QString* masked);
    // The three most likely words `modelDir` puts at the mask, with their probabilities, on one line;
    // "(fill-mask failed: ...)" when the tool could not run.
    static QString predict(const QString& nodeProgram, const QString& modelDir, const QString& sentence);
};

} // namespace sahaj::node
