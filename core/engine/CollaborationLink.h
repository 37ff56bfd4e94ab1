#pragma once

#include "core/collab/GlobalProgress.h"
#include "core/collab/GroupSpec.h"
#include "core/collab/PeerBoard.h"
#include "core/collab/PeerProgress.h"
#include "core/collab/TrainingState.h"
#include "core/engine/LinkOptions.h"
#include "core/net/WireMessage.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace sahaj::collab {
class StateChunker;
struct MatchmakingResult;
} // namespace sahaj::collab

namespace sahaj::engine {

// A group agreed for one epoch, handed from the collaboration thread to the training thread, which
// hands it back with its vector to average().
struct FormedGroup {
    collab::GroupSpec group;
    std::vector<net::WireMessage> early; // parts that arrived before the round began
    bool leader = false;
    std::string leaderId; // the peer that began it (this peer's id when it led; empty when alone)
};

struct RoundOutcome {
    std::vector<float> values; // averaged (or this peer's own where a span failed)
    bool alone = false;        // a group of one: nothing was exchanged
    bool complete = false;     // every span holds the group's mean
    // A member left the group before its round: the values are not to be stepped with; this peer keeps
    // its gradient and looks for a group again (at most once an epoch).
    bool regroup = false;
    double seconds = 0.0;
    std::uint64_t bytesSent = 0;
    std::uint64_t bytesReceived = 0;
    std::size_t pacedConnections = 0;    // connections the kernel paced (net::ConnectionPacer)
    std::vector<std::string> excluded;   // peers this aggregator went ahead without
    std::vector<std::string> violations; // what they did
    // Per member of the round's group, the weight its parts counted for in this peer's span (−1: none).
    std::vector<double> countedWeights;
};

// What the collaboration thread knows, copied out for the training thread and the logs.
struct LinkStatus {
    collab::GlobalProgress global;
    std::uint64_t localEpoch = 0;
    int remotePeers = 0;
    double bandwidthBytesPerSecond = 0.0; // declared to the group: min(measured, cap)
    double uploadBytesPerSecond = 0.0;    // measured
    double downloadBytesPerSecond = 0.0;
    std::string lastProblem; // the last thing that went wrong (for the log), empty if none
    // The peers of the run as their DHT records present them (this one included), read every
    // kSightingPeriod: the app's peer map and list.
    // Shared, immutable: the thread publishes its status at every turn of its loop, these change every 15 s.
    std::shared_ptr<const std::vector<collab::PeerAnnouncement>> peers;
    // Peer id (32 bytes) → the handshake round trip in ms (collab::LatencyProbe).
    std::shared_ptr<const std::map<std::string, double>> latencyMs;
    std::shared_ptr<const std::set<std::string>> silentPeers; // LatencyProbe::silent()
    // Since the link started: averaging rounds, state served and state downloaded.
    std::uint64_t bytesSent = 0;
    std::uint64_t bytesReceived = 0;
    double bytesPerValue = 2.0; // of the gradient's wire encoding: turns declared values/s into bytes/s
};

// The collaboration thread of one peer (docs/architecture.md, "Threads"): it owns the ZeroMQ sockets, the DHT
// node, the progress tracker and the state server, and does everything that talks to other peers. It
// publishes this peer's progress and announcement, answers state requests, forms a group when the
// collaboration's batch is nearly full, and downloads the state when this peer is behind. The training thread
// keeps computing meanwhile and talks to it only through the calls below, which hand data over by value:
//   - reportProgress() after each micro-batch;
//   - takeGroup() between micro-batches; when it returns a group, average() with the gradient (and, on a
//     state-averaging epoch, again with the parameters and optimiser state), then epochCompleted() with the
//     new state;
//   - takeState() between micro-batches: a newer state downloaded from a donor, to load.
class CollaborationLink {
public:
    // Binds the ROUTER and the DHT node and starts the thread. Throws std::runtime_error when a socket
    // cannot be bound, std::invalid_argument for inconsistent options.
    explicit CollaborationLink(LinkOptions options);
    // Publishes this peer's departure (its records are replaced by ones that expire at once) and joins
    // the thread.
    ~CollaborationLink();
    CollaborationLink(const CollaborationLink&) = delete;
    CollaborationLink& operator=(const CollaborationLink&) = delete;

    const std::string& peerId() const { return peerId_; }
    // The ROUTER's bound endpoint (empty for a client).
    const std::string& endpoint() const { return endpoint_; }
    std::uint16_t dhtPort() const;
    // The DHT nodes this peer's node knows now ("host:port"), for KnownDhtNodes.
    std::vector<QString> knownDhtNodes() const;

    void reportProgress(std::uint64_t samples, double samplesPerSecond);
    // The accumulation starts again from 0 samples (after a step); the rate stays as it was.
    void restartAccumulation();
    std::optional<FormedGroup> takeGroup();
    // Runs the butterfly all-reduce of `local` (weight: this peer's sample count) in `group`, on the
    // collaboration thread; blocks until it ends. state: average the state vector instead (parameters
    // and optimiser moments, fp32, every member weighted 1, under a group id derived from the gradient
    // round's).
    RoundOutcome average(FormedGroup& group, std::vector<float> local, double weight, bool state);
    // The same round, started without waiting for it: its outcome comes through the future (delayed
    // parameter updates, PeerOptions::delayedUpdates). The future is broken if the link is destroyed first.
    std::future<RoundOutcome> beginAverage(FormedGroup& group, std::vector<float> local, double weight,
                                           bool state);
    // This peer now holds `epoch`'s state; `snapshot` is what it serves to newcomers from now on.
    void epochCompleted(std::uint64_t epoch, std::shared_ptr<const collab::StateChunker> snapshot);
    std::optional<collab::TrainingState> takeState();
    // A group or a state waits to be taken: the training thread cuts a duty-cycle rest short for it (a
    // group's round waits for its members, and one that rests through it misses it).
    bool hasWaiting() const;
    LinkStatus status() const;
    // The user's new caps in bytes per second (0: none), from the next transfer on: paced in the
    // transport and bounding the bandwidth this peer declares.
    void setCaps(double uploadBytesPerSecond, double downloadBytesPerSecond);

private:
    struct Session; // everything the thread owns
    struct RunningRound;

    // Where this peer stands with its epoch's group, one phase at a time (docs/collaboration.md, "The
    // collaboration thread"): every change goes through enter() and is said in the trace. A round
    // (average()) runs beside the phase, while the group is the training thread's.
    enum class GroupPhase {
        Idle,         // waiting for its batch's end to look for a group, or to find itself behind
        Matchmaking,  // looking for a group (collab::Matchmaking under way)
        AloneReading, // ended alone: a newer reading of the records decides (placeGroupOfOne)
        Pending,      // in a group, waiting for the batch to fill (maybeReleaseGroup)
        HandedOver,   // the group is the training thread's until epochCompleted()
        Chasing,      // alone at an epoch the others left: their state is to be loaded
        Downloading,  // a state download under way (stepDownload)
        StateLoaded,  // a downloaded state is the training thread's until epochCompleted()
    };
    static const char* nameOf(GroupPhase phase);
    // The one transition function of the phases.
    void enter(Session& s, GroupPhase next, const std::string& why);

    void threadMain();
    void banViolators(Session& s, const std::vector<std::pair<std::string, std::string>>& violators);
    // The members of `spec` this peer bans now.
    static std::vector<std::string> bannedMembers(const Session& s, const collab::GroupSpec& spec);
    // This peer banned `peerId` (nothing is banned without admission: no ZAP handler).
    static bool isBanned(const Session& s, const std::string& peerId, qint64 nowMs);
    void renewToken(Session& s);
    void followRevocations(Session& s);
    void note(const std::string& line) const;
    void trace(const std::string& line) const;
    void runTasks(Session& s);
    // Waits up to `wait` for the ROUTER, or a socket of the state download, to have something.
    void waitForWork(Session& s, std::chrono::milliseconds wait);
    void serveRouter(Session& s, std::chrono::milliseconds wait);
    void handleRouterMessage(Session& s, net::WireMessage message);
    // The group this peer left before its round that `envelope` (a round message) is for, and this peer's
    // span in it; nullptr for any other message.
    static const std::pair<std::string, std::uint32_t>* leftGroupOf(const Session& s,
                                                                    const wire::Envelope& envelope);
    void publishRecord(Session& s, std::chrono::system_clock::time_point now);
    void refreshProgress(Session& s);
    // What a reading of the others' progress records found: the tracker, the refresh policy, and what
    // follows.
    void takeProgress(Session& s, const std::vector<collab::PeerProgress>& records);
    void announce(Session& s);
    static std::string batchReading(const Session& s, std::chrono::system_clock::time_point now);
    void maybeDownloadState(Session& s);
    void stepDownload(Session& s);
    void maybeFormGroup(Session& s);
    void stepRound(Session& s);
    void finishRound(Session& s);
    RoundOutcome outcomeOf(Session& s, RunningRound& running);
    // Why a round's values are not stepped with and the peer looks for a group again (regroupOnce).
    enum class RegroupReason { MemberLeft, PlansDiffer };
    void regroupOnce(Session& s, RoundOutcome& outcome, RegroupReason reason, std::uint64_t epoch,
                     const std::string& why);
    void stepMatchmaking(Session& s);
    void placeGroupOfOne(Session& s);
    void placeGroup(Session& s, collab::MatchmakingResult result, std::uint64_t local);
    void maybeGiveUpMatchmaking(Session& s, std::uint64_t globalEpoch);
    void maybeReleaseGroup(Session& s);
    std::optional<std::string> othersBeganFirst(Session& s);
    void publishStatus(Session& s);
    void lookAround(Session& s);
    void drainDealers(Session& s);
    // Runs `task` on the collaboration thread and waits for it.
    void call(std::function<void(Session&)> task);

    LinkOptions options_;
    std::string peerId_;
    std::string endpoint_;
    std::unique_ptr<Session> session_;

    mutable std::mutex mutex_; // guards the hand-over fields below
    std::condition_variable taskDone_;
    std::deque<std::function<void(Session&)>> tasks_;
    std::uint64_t reportedSamples_ = 0;
    double reportedRate_ = 0.0;
    std::optional<FormedGroup> formed_;
    std::optional<collab::TrainingState> downloaded_;
    LinkStatus status_;

    std::atomic<bool> stopping_{false};
    std::thread thread_;
};

} // namespace sahaj::engine
