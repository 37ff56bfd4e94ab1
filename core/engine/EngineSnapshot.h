#pragma once

#include "core/engine/EngineLimits.h"
#include "core/engine/EngineState.h"
#include "core/engine/Reachability.h"

#include <QString>

#include <vector>

namespace sahaj::engine {

// A peer of the collaboration as this one sees it: from its signed DHT record, and the latency this peer
// measured to it (peers that accept connections only).
struct PeerSighting {
    QString peerId;          // hex
    QString role;            // "node", "client", "auxiliary", "coordinator"
    QString country;         // ISO 3166 alpha-2 it chose to share, empty: not shared
    double mbps = 0.0;       // the bandwidth it declares, Mbit/s of wire bytes
    double latencyMs = -1.0; // round trip of a ping, -1: not measured
    std::uint64_t epoch = 0;
    bool self = false;
    bool answers = true; // false: its endpoint refused, or did not answer, this peer's last dial
};

// One member's part in an averaging round.
struct RoundShare {
    QString peerId;
    QString role;
    double share = 0.0; // fraction of the vector it aggregated
    bool self = false;
};

// One averaging round this peer took part in.
struct RoundSummary {
    std::uint64_t epoch = 0;
    qint64 timeMs = 0;
    double seconds = 0.0;
    std::uint64_t bytesSent = 0;
    std::uint64_t bytesReceived = 0;
    double loss = 0.0; // the batch's mean loss, 0 if unknown
    bool complete = false;
    std::vector<RoundShare> members; // in the group's order
};

// One point of the loss curve.
struct LossPoint {
    std::uint64_t epoch = 0;
    double loss = 0.0;
};

// What the engine is and knows at one moment. Immutable once published: the UI keeps the shared pointer
// and renders it, never asks the engine's threads anything.
// A download of the run's files while the engine prepares to train (shards, the tokenizer).
struct DataDownload {
    QString name;     // the file, as its first URL names it
    qint64 done = 0;  // bytes here, resumed ones included
    qint64 total = 0; // its size in the manifest
    double bytesPerSecond = 0.0;
    double etaSeconds = -1.0; // -1: unknown
    bool active = false;      // false once it finished (or before any began)
};

struct EngineSnapshot {
    static constexpr std::size_t kRecentRounds = 20;
    static constexpr std::size_t kLossPoints = 2000;

    qint64 timeMs = 0;
    EngineState state = EngineState::Offline;
    PauseCause cause = PauseCause::None;     // set while Paused or Snoozed
    qint64 snoozedUntilMs = 0;               // set while Snoozed
    QString detail;                          // the error, or what the engine waits for
    JoinProblem problem = JoinProblem::None; // the error's kind, when the UI words it (EngineState.h)
    QString problemReason;                   // the organiser's words for a refusal
    bool finishingStep = false;              // will pause once the current step is done
    // Offline because the run reached its last step (the engine left on its own, nothing went wrong), not
    // because the user left or an error stopped it.
    bool runFinished = false;

    QString runId;
    QString peerId;            // hex, empty before the first join
    QString role;              // "node", "client", "auxiliary"
    Reachability reachability; // why this role: whether the others can dial this computer
    QString device;            // the setting: "auto", "cpu", "cuda:N"
    QString compute; // what computes: "cuda core on cuda:0 (NVIDIA H200)", empty before the cores are chosen
    bool computesOnGpu = false; // a GPU core trains (the GPU pause rule applies)
    DataDownload download;      // while the run's files come over the network

    std::uint64_t localEpoch = 0;
    std::uint64_t globalEpoch = 0;
    double batchSamples = 0.0; // accumulated towards the current global batch, extrapolated
    std::uint64_t targetBatchSize = 0;
    double etaSeconds = -1.0; // until the next global step, -1: unknown
    double collaborationSamplesPerSecond = 0.0;
    double localSamplesPerSecond = 0.0;
    std::uint64_t localSamples = 0; // this peer's samples in the current batch
    int peersOnline = 0;
    int clientsOnline = 0;
    // Running, but no other peer heard from for a while (ContactWatch): the engine keeps trying.
    bool collaborationLost = false;
    // Running with other peers, but the run's coordinator has not answered for a while (ContactWatch):
    // training goes on; newcomers cannot be admitted until it is back.
    bool coordinatorLost = false;

    double uploadBytesPerSecond = 0.0; // measured over the last few seconds
    double downloadBytesPerSecond = 0.0;
    double declaredMbps = 0.0; // what the load balancer plans with for this peer
    std::uint64_t sessionBytesSent = 0;
    std::uint64_t sessionBytesReceived = 0;
    // Of those, what is not in the ledger's transfer samples yet (they are written a minute at a time):
    // today's and all-time totals add it, so that they never read less than the session.
    std::uint64_t unrecordedBytesSent = 0;
    std::uint64_t unrecordedBytesReceived = 0;

    std::vector<PeerSighting> peers;
    std::vector<RoundSummary> rounds; // the last kRecentRounds, oldest first
    std::vector<LossPoint> loss;      // the last kLossPoints epochs of this run, oldest first
    EngineLimits limits;
};

} // namespace sahaj::engine
