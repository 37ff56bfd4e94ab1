#pragma once

#include <QString>

namespace sahaj::node {

// Where a demo finds what it needs (the desktop app's and `sahaj-node demo`, both installed in /usr/bin and
// built two folders below build/): the sahaj-node program (installed: /usr/bin; built: build/app/node), and
// a training text with a tokenizer trained on it ($SAHAJ_DEMO_DIR, the package's share/sahaj/demo, or what
// scripts/demo-data.sh builds in the build folder: build/data/demo-corpus, build/runs/tokenizer).
struct DemoFiles {
    QString nodeProgram;
    QString corpus;
    QString tokenizer;

    // Empty when every file was found, else one sentence naming what is missing and how to get it.
    QString problem() const;
    static DemoFiles locate();
};

} // namespace sahaj::node
