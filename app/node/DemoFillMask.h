#pragma once

#include <QByteArray>
#include <QString>
#include <QStringList>

namespace sahaj::node {

// The demos' "before and after" (`sahaj-node demo` and the desktop app's): one sentence of its corpus with a
// word masked, and what a model folder predicts for it (`sahaj-node fill-mask`, run in a compute core), so a
// newcomer sees the model learn the text it was trained on, not just a loss falling.
class DemoFillMask {
public:
    // How long the tool may take for one model.
    static constexpr int kToolTimeoutMs = 120000;

    // A sentence of `corpus` (the first line of five to twelve words) with its third word masked; empty
    // when the corpus has none. `masked` gets the word it hides.
    static QString sentence(const QString& corpus, QString* masked);
    // The arguments of sahaj-node that predict the three most likely words `modelDir` puts at the mask.
    static QStringList arguments(const QString& modelDir, const QString& sentence);
    // Those words with their probabilities on one line ("রে 0.031, না 0.020, ..."), from the tool's JSON
    // output; empty when it holds no prediction.
    static QString guesses(const QByteArray& json);
    // The tool run and read at once (blocking, up to kToolTimeoutMs): the guesses, or "(fill-mask failed:
    // ...)" when the tool could not run.
    static QString predict(const QString& nodeProgram, const QString& modelDir, const QString& sentence);
};

} // namespace sahaj::node
