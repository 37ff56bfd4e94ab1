#pragma once

#include <QJsonObject>

#include <cstdint>
#include <string>
#include <vector>

namespace sahaj::engine {

// One member of the group an epoch was averaged in, as this peer saw it.
struct RoundMember {
    std::string peerId;     // hex
    std::string role;       // "node", "client", "auxiliary"
    double share = 0.0;     // fraction of the vector it aggregated
    double weight = 0.0;    // declared on joining
    double bandwidth = 0.0; // values per second it declared
    double counted = -1.0;  // the weight its gradient counted for in this peer's span (−1: none)
};

// What one global step was on this peer: for the live output, the logs and the demo's summary.
struct EpochReport {
    std::uint64_t epoch = 0; // the epoch reached (after the step)
    double loss = 0.0;       // the batch's mean loss (averaged with the group), 0 if unknown
    double localLoss = 0.0;  // this peer's own mean loss over its samples
    std::int64_t localSamples = 0;
    // Delayed updates: samples of the next batch this peer computed while the round ran, on the parameters
    // before this step (0 with synchronous updates, where computing waits for the round).
    std::int64_t samplesDuringRound = 0;
    std::int64_t localTokens = 0; // in those samples (padding excluded)
    double weight = 0.0;          // this peer's averaging weight
    bool regrouped = false;       // no step: a member left the group before its round (not reported)
    std::vector<RoundMember> members;
    double share = 0.0;           // this peer's span / vector
    std::int64_t vectorSize = 0;  // values averaged
    double computeSeconds = 0.0;  // spent computing gradients since the previous epoch
    double wallSeconds = 0.0;     // since the previous epoch
    double dataWaitSeconds = 0.0; // of those, waiting for the next shard (its prefetch was late)
    bool alone = false;           // no group: stepped with its own gradient
    bool led = false;             // this peer led the group (planned its spans)
    bool complete = false;        // every span averaged
    bool parametersAveraged = false;
    bool applied = false;     // the optimiser step was taken
    bool restored = false;    // parameters turned non-finite and the last good state came back
    bool stateLoaded = false; // this "epoch" is a state downloaded from a donor
    double roundSeconds = 0.0;
    std::uint64_t bytesSent = 0;
    std::uint64_t bytesReceived = 0;
    std::uint64_t pacedConnections = 0; // connections of its rounds the kernel paced
    double learningRate = 0.0;
    double gradientNorm = 0.0;
    double samplesPerSecond = 0.0; // the collaboration's, as estimated from the progress records
    double bandwidthMbps = 0.0;    // what this peer declares, in Mbit/s of wire bytes
    std::string parametersSha256;
    std::vector<std::string> problems;

    QJsonObject toJson() const;
};

} // namespace sahaj::engine
