#pragma once

#include "core/collab/StateAssembler.h"
#include "core/collab/StateVote.h"

#include <zmq.hpp>

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace sahaj::net {
class MessageCodec;
class SocketFactory;
} // namespace sahaj::net

namespace sahaj::collab {

struct StateDonor {
    std::string peerId; // 32 bytes
    std::string endpoint;
    std::string curveKey{};    // from its access token (empty in runs that admit anyone)
    bool coordinator = false;  // its access token has the coordinator role
    bool failedLately = false; // it failed this peer lately (DonorHistory): asked only if others are too few
};

// One donor that could not serve the state, and why.
struct DonorFailure {
    std::string peerId;
    std::string reason;
};

// The failures in one line, for the log and the status: "donor 1a2b3c4d: why; donor ...".
std::string describe(const std::vector<DonorFailure>& failures);

struct StateDownload {
    // The verified snapshots (StateSnapshot::deserialize next): the one the donors vouched for, or the
    // StateVote::kMedianOf whose median is to be loaded (StateMedian).
    std::vector<std::string> snapshots;
    std::uint64_t epoch = 0;
    std::vector<std::string> donors;    // peer id of the donor of each snapshot
    std::vector<DonorFailure> failures; // the donors tried before, in order
};

// A newcomer's download. First it asks the donors what they would serve, all at once: the coordinator and
// up to kMaxAsked in all drawn at random (those that failed lately only when the others are too few), so
// that no claim of a donor's (epoch, bandwidth) gets it asked, nor a liar's many identities the majority.
// It takes the state that StateVote finds vouched for (a majority of the answers, or the coordinator's): a
// donor's epoch and state are its own claims; else three states of one epoch, whose median the caller
// loads. Then it asks the donors that offered the vouched state, in the given order (best first), or the
// donors of that epoch in random order, each for the snapshot it offered, chunk by chunk through a
// DEALER, and on any
// failure — silence past the timeout, an error reply, a protocol violation, a refused chunk (older,
// spliced, too large, bad hash, not the state vouched for) — drops that donor and starts over with the
// next. One request is in flight at a time: simple, and a 4 MiB chunk keeps the link busy. The snapshots
// downloaded are held until the last arrives: at most kMedianOf × maxBytes.
//
// A donor may lie by being slow: chunks of 1 byte, each just inside the timeout, would hold the download
// for ever. After the first chunk timeout's worth of grace, a donor must have delivered at least
// minBytesPerSecond on average since the download from it began, or it is dropped like a silent one: a
// download from one donor ends within chunkTimeout + maxBytes / minBytesPerSecond.
//
// A step of its caller's event loop (the collaboration thread's, which meanwhile keeps its progress
// records, announcements, token and status alive: docs/collaboration.md, "The collaboration thread"):
// start() it, then call step() whenever pollItems() has something, or at least every few tens of
// milliseconds, until finished(). step() never waits. Its phases are named (Phase) and change in one
// place, enter(), which reports each change to onTransition. download() does all of it in one blocking
// call, for callers with nothing else to do.
class StateDownloader {
public:
    // About 1 Mbit/s: a home uplink serves more; sahajBERT's 0.4 GB state in under an hour at worst.
    static constexpr double kMinBytesPerSecond = 128.0 * 1024;
    // Donors asked what they would serve: enough for a majority to mean something, few enough that
    // asking costs nothing.
    static constexpr std::size_t kMaxAsked = 16;

    enum class Phase {
        Idle,          // not started
        AskingDigests, // every donor asked what it would serve; waiting for their answers
        Fetching,      // asking one donor at a time for the chunks of the state it offered
        Done,          // a verified snapshot is ready (take())
        Failed,        // no donor delivered (lastFailures() says why)
    };
    static const char* nameOf(Phase phase);

    StateDownloader(const net::MessageCodec& codec, const net::SocketFactory& sockets, std::uint64_t minEpoch,
                    std::uint64_t maxBytes, std::chrono::milliseconds chunkTimeout,
                    double minBytesPerSecond = kMinBytesPerSecond);
    StateDownloader(const StateDownloader&) = delete;
    StateDownloader& operator=(const StateDownloader&) = delete;

    // Called with a line for each phase change ("asking digests -> fetching: from donor 1a2b3c4d").
    void onTransition(std::function<void(const std::string&)> log) { log_ = std::move(log); }

    // Begins a download from `donors` (best first). Only from Idle: one downloader, one download.
    void start(std::vector<StateDonor> donors);
    // Does what can be done without waiting: sends what the connections take, reads what arrived, applies
    // the timeouts and moves on from donors that failed.
    void step();
    // The sockets step() waits on, for the caller's poll (empty once finished).
    std::vector<zmq::pollitem_t> pollItems();
    Phase phase() const { return phase_; }
    bool finished() const { return phase_ == Phase::Done || phase_ == Phase::Failed; }
    // Bytes of the snapshot received so far from the current donor, and its size as vouched (0: unknown).
    std::uint64_t bytesReceived() const { return received_; }
    std::uint64_t bytesExpected() const { return expected_.size; }
    // The verified snapshot once Done (moves it out), with the donors that failed before.
    std::optional<StateDownload> take();
    const std::vector<DonorFailure>& lastFailures() const { return failures_; }

    // start(), then poll and step() until finished(); the snapshot, or nullopt when every donor failed.
    std::optional<StateDownload> download(const std::vector<StateDonor>& donors);

private:
    using Clock = std::chrono::steady_clock;

    // One donor asked for its digest.
    struct Asking {
        std::size_t donor = 0; // index into donors_
        zmq::socket_t socket;
        std::vector<zmq::message_t> request; // until sent
        std::uint64_t requestId = 0;
        bool done = false;
        std::string failure; // reported in the donors' order, whenever it happened
    };

    // The one transition function: every phase change goes through here and is reported.
    void enter(Phase next, const std::string& why);
    void stepAsking();
    void receiveDigests(Asking& entry);
    // Once every donor answered, the wait is over or a majority is certain: vote, then fetch.
    void decideDigests();
    void stepFetching();
    // Reads what the current donor answered: true when that changed anything (a chunk taken and the next
    // asked for, the download done, the donor dropped), false when nothing has arrived.
    bool readChunk();
    // The donors to ask, as indices into donors_: the coordinator, then at random (kMaxAsked in all).
    std::vector<std::size_t> drawAsked();
    // The next donor (from nextDonor_ in fetchOrder_) that offered a state wanted: connects and asks for
    // its first chunk; Done once every snapshot needed is there, Failed when no donor is left. why: what led
    // here (the vote, or the last donor's failure).
    void fetchFromNextDonor(const std::string& why);
    // Whether `digest` is a state still wanted: the vouched one, or one of the median's epoch.
    bool wanted(const StateDigest& digest) const;
    // Keeps a verified snapshot; Done once there are as many as needed.
    void keep(const StateDigest& digest, std::string bytes, const std::string& donor);
    void askNextChunk();
    // Records the current donor's failure and moves on to the next.
    void donorFailed(const std::string& why);

    const net::MessageCodec& codec_;
    const net::SocketFactory& sockets_;
    std::uint64_t minEpoch_;
    std::uint64_t maxBytes_;
    std::chrono::milliseconds chunkTimeout_;
    double minBytesPerSecond_;
    std::function<void(const std::string&)> log_;
    std::uint64_t nextRequestId_ = 1;

    Phase phase_ = Phase::Idle;
    std::vector<StateDonor> donors_;
    std::vector<DonorFailure> failures_;
    // AskingDigests
    std::vector<Asking> asking_;
    std::size_t open_ = 0;
    std::vector<DonorDigest> answers_;
    Clock::time_point digestsBy_;
    // Fetching
    std::optional<StateDigest> vouched_;       // the state the donors vouched for, or
    std::optional<std::uint64_t> medianEpoch_; // the epoch of the states whose median is taken
    std::size_t needed_ = 1;                   // snapshots to download: 1, or StateVote::kMedianOf
    std::vector<std::size_t> fetchOrder_;      // donors to fetch from, as indices into donors_
    std::vector<StateDigest> kept_;            // the digests of result_'s snapshots
    StateDigest expected_;                     // of the snapshot being fetched
    std::mt19937_64 random_{std::random_device{}()};
    std::size_t nextDonor_ = 0; // into fetchOrder_
    std::size_t donor_ = 0;     // the donor being fetched from
    zmq::socket_t socket_;
    std::optional<StateAssembler> assembler_;
    std::vector<zmq::message_t> request_; // the chunk request, until sent
    std::uint64_t requestId_ = 0;
    Clock::time_point began_;    // of the download from this donor
    Clock::time_point deadline_; // for the request in flight (its sending, then its answer)
    std::uint64_t received_ = 0; // bytes from this donor
    // Fetching (the snapshots so far) and Done
    std::optional<StateDownload> result_;
};

} // namespace sahaj::collab
