#pragma once

#include <QString>
#include <QStringView>

#include <array>

namespace sahaj::node {

// The sahaj-node commands that run the model: train-local, eval, fill-mask, finetune, model-info. Only
// the compute cores link libtorch (docs/compute-cores.md), so these commands are built into `sahaj-model`,
// an executable of the cpu core, and sahaj-node hands each of them its arguments (ModelToolLauncher).
// This table names them once, for sahaj-node's overview and for the commands themselves.
struct ModelToolCommand {
    const char* name;
    const char* summary;
};

inline constexpr std::array<ModelToolCommand, 5> kModelToolCommands{{
    {"model-info", "Print a model config's parameter count and sizes"},
    {"train-local", "Train a model on this machine alone, with checkpoints"},
    {"eval", "Masked-LM and sentence-order loss and accuracy of a model"},
    {"fill-mask", "The most likely tokens for each [MASK] of a text"},
    {"finetune", "Fine-tune a model for NER or text classification and score it"},
}};

// The summary of the model tool command `name` ("" for another name).
inline QString modelToolSummary(QStringView name) {
    for (const ModelToolCommand& command : kModelToolCommands)
        if (name == QLatin1String(command.name))
            return QString::fromLatin1(command.summary);
    return {};
}

} // namespace sahaj::node
