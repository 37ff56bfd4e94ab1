#pragma once

#include "core/collab/AllReduceRound.h"
#include "core/collab/MatchmakingOptions.h"
#include "core/collab/ProgressRefreshPolicy.h"
#include "core/engine/LinkSecurity.h"
#include "core/engine/StateFit.h"
#include "core/net/protocol.pb.h"

#include <QString>
#include <QStringList>

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace sahaj::security {
class PeerIdentity;
}

namespace sahaj::engine {

// What the collaboration thread of one peer needs: who it is, where it listens, whom it meets first,
// what the group averages and how long it waits for what.
struct LinkOptions {
    QString runId;
    std::string schemaHash; // ModelReplica::schemaHash: peers differing in it never group
    std::shared_ptr<const security::PeerIdentity> identity;
    // Set in every run that admits peers by token (every run sahaj-node joins): CURVE on every socket, a
    // ZAP handler admitting only the keys of valid tokens, token-checked DHT records. Unset only where a
    // test exercises the collaboration alone.
    std::optional<LinkSecurity> security;
    // How long a peer that broke the protocol is refused (ZAP) and its messages dropped.
    std::chrono::seconds banTime{600};
    std::chrono::seconds renewRetry{30};
    // The coordinator's token endpoint, announced in its peer record so that newcomers find it through the
    // DHT (empty for every other peer).
    std::string authEndpoint;
    // The organiser's revocations file (security::RevocationFile), on the coordinator only: its list is
    // published to the run (RevocationFollower). Empty elsewhere.
    QString revocationsPath;
    // ROLE_NODE (trains and aggregates), ROLE_CLIENT (trains, connects out only), ROLE_AUXILIARY
    // (aggregates with weight 0; the coordinator is a node with weight 0, since it keeps the model).
    wire::Role role = wire::ROLE_NODE;
    // Whether this peer computes gradients (a coordinator or an auxiliary does not).
    bool trains = true;
    // The epoch at which this peer leaves (0: none): it looks for no group there. Its training ends there
    // while this thread still runs until the peer has left; a group it formed at that epoch let the others
    // step past it (seen: a coordinator and a leaving newcomer stepped to 16, and the other newcomer, a
    // round behind, loaded that state and ended at 16 instead of its 15).
    std::uint64_t lastEpoch = 0;
    // Whether this peer serves its state to newcomers (every peer with a ROUTER and a model).
    bool stateDonor = true;

    // The ROUTER's endpoint ("tcp://127.0.0.1:0": any free port); ignored for clients.
    std::string listenEndpoint = "tcp://127.0.0.1:0";
    QString dhtBindAddress = QStringLiteral("127.0.0.1");
    std::uint16_t dhtPort = 0;
    QStringList bootstrap; // HOST:PORT of the coordinator's DHT node and any other known nodes
    std::chrono::milliseconds dhtConnectTimeout{60000};

    std::uint64_t targetBatchSize = 4096;
    std::int64_t vectorSize = 0; // the averaged gradient vector (ModelReplica::averagedVectorSize)
    // The state averaged every parameterAveragingEvery epochs (ModelReplica::averagedStateSize).
    std::int64_t stateVectorSize = 0;
    // Ranges of the state vector that may not fall below a floor (ModelReplica::stateFloors): a part that
    // breaks one excludes its sender from the state round.
    std::vector<collab::ValueFloor> stateFloors;
    // What a downloaded state must fit (ModelReplica::stateFit): a donor's state that does not is its
    // donor's failure, named (DownloadedState). None: only the snapshot's own checks.
    std::shared_ptr<const StateFit> stateFit;
    wire::Encoding encoding; // of gradients; parameters always travel as fp32
    std::int64_t parameterAveragingEvery = 5;

    // The user's caps in bytes per second (0: none): paced in the transport, and what the bandwidth this
    // peer declares can never exceed.
    double uploadBytesPerSecond = 0.0;
    double downloadBytesPerSecond = 0.0;
    // Testing a run's defences only: declare this many bytes per second whatever was measured (0: the
    // honest min(measured, cap)). Leaders cap such a claim by what they see the peer deliver.
    double claimedBytesPerSecond = 0.0;
    // Testing a run's defences only (GradientAttack::FutureEpoch): its progress records claim an epoch
    // this much ahead of its own. 0 for every honest peer.
    std::uint64_t publishedEpochLead = 0;
    // Testing a run's defences only (GradientAttack::InflatedSamples, AlwaysReady): its progress records
    // and join requests claim this many samples whatever it has. 0, its own count, for every honest peer.
    std::uint64_t claimedSamples = 0;
    // Testing a run's defences only (GradientAttack::Equivocate): as an aggregator, it sends each member
    // other averages, each under a valid seal. False for every honest peer.
    bool equivocate = false;
    // Audited averages (docs/protocol.md): how many other aggregators' spans this peer audits each round,
    // chosen at random (one part of each, recomputed from its signed inputs). Each audit costs a part's
    // inputs, part_elements values from each sender: at the default part size and fp16, 128 KiB per sender.
    std::size_t auditedSpans = 2;

    // Group formation timings (schemaHash, encoding and vectorSize are filled in from above).
    collab::MatchmakingOptions matchmaking;
    // Round timeouts (the caps are filled in from above).
    collab::AllReduceOptions allReduce;
    // How often progress is published and read: at most maxPeriod apart (hivemind refreshes every 3 s by
    // default), more often near the ETA.
    collab::ProgressRefreshOptions progressRefresh{0.1, std::chrono::milliseconds(500),
                                                   std::chrono::milliseconds(3000)};
    // Start looking for a group this long before the collaboration's ETA, so that forming it overlaps
    // the last micro-batches.
    std::chrono::milliseconds matchmakingLead{3000};
    // How long before the ETA this peer looks for a group. A peer that trains nothing (the coordinator, an
    // auxiliary) has no batch of its own to watch and learns of the others' progress only at its refreshes:
    // it looks a refresh period earlier than a trainer, and no earlier. It usually leads (its declaration
    // comes first), and its group closes at most maxGatherTime after it declared: that must be after the
    // trainers look, matchmakingLead before the ETA. Looking a gather time earlier as well, the coordinator
    // led the 40-volunteer soak's largest groups and closed them about 3 s before most trainers looked, who
    // then formed groups of their own (docs/soak.md, "Why epochs split").
    std::chrono::milliseconds lookAhead() const {
        return trains ? matchmakingLead : matchmakingLead + progressRefresh.maxPeriod;
    }
    // How long this peer's progress record and peer record live in the DHT (2 to 600 s): a peer that
    // left is forgotten that much later; shorter means more DHT traffic. Both are republished well before
    // they expire (the progress refresh's longest period is held to half of it), during a round too.
    std::chrono::seconds recordTtl{60};
    // The largest state snapshot accepted from a donor, and how long one chunk may take.
    std::uint64_t maxStateBytes = 4ull << 30;
    std::chrono::milliseconds stateChunkTimeout{20000};
    std::string version;
    // The country this peer shows on the others' peer maps (ISO 3166 alpha-2), empty: not shared.
    std::string country;
    // One line per notable event (groups formed, states downloaded, failures), from the collaboration
    // thread: keep it short and thread-safe. May be empty.
    std::function<void(const std::string&)> log;
    // One line per phase change of a sub-protocol the collaboration thread steps (matchmaking, a state
    // download): for diagnosis, not for the user's event log. May be empty.
    std::function<void(const std::string&)> trace;
};

} // namespace sahaj::engine
