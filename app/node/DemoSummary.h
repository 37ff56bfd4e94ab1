#pragma once

#include <QJsonObject>
#include <QString>
#include <QStringList>

namespace sahaj::node {

// The demo's summary.json, built from what each peer wrote into its folder (summary.json and
// epochs.jsonl): global_steps, the loss per epoch, every peer's final state and every round's group,
// shares, duration and traffic.
class DemoSummary {
public:
    // peerDirs: the coordinator's folder first, then the volunteers'. Throws std::runtime_error naming a
    // file that is missing or malformed.
    static QJsonObject build(const QStringList& peerDirs);
    // Whether every volunteer reached the last epoch and all hold the same parameters (the coordinator too
    // when it reached it).
    static bool parametersEqual(const QJsonObject& summary);
};

} // namespace sahaj::node
