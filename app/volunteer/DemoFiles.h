#pragma once

#include <QString>

namespace sahaj::volunteer {

// Where the app finds what its demo needs: the sahaj-node program beside it (installed: /usr/bin; built:
// build/app/node), and a training text with a tokenizer for it ($SAHAJ_DEMO_DIR, the package's
// share/sahaj/demo, or what scripts/run.sh builds in the build folder).
struct DemoFiles {
    QString nodeProgram;
    QString corpus;
    QString tokenizer;

    // Empty when every file was found, else one sentence naming what is missing and how to get it.
    QString problem() const;
    static DemoFiles locate();
};

} // namespace sahaj::volunteer
