#pragma once

#include "app/volunteer/DemoFillMaskRun.h"
#include "core/engine/EngineSnapshot.h"

#include <QCoreApplication>
#include <QString>
#include <QStringList>

namespace sahaj::volunteer {

// What the desktop demo shows at its end, in the volunteer's language: what the run did, and what the model
// learned, as `sahaj-node demo` prints it (node::DemoFillMask): one sentence of the corpus with a word
// masked, and the words the model put there before training and after.
class DemoOutcome {
    Q_DECLARE_TR_FUNCTIONS(sahaj::volunteer::DemoOutcome)

public:
    // "The demo finished: 100 steps, loss 11.07 → 7.81." (the steps and loss of `snapshot`), then, when there
    // is a `sentence`, 'Fill-mask "…" — before training: «…»; after: «…».'
    static QStringList lines(const engine::EngineSnapshot& snapshot, const QString& sentence,
                             const DemoFillMaskRun::Prediction& before,
                             const DemoFillMaskRun::Prediction& after);
};

} // namespace sahaj::volunteer
