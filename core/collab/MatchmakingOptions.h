#pragma once

#include "core/collab/BandwidthClaims.h"
#include "core/collab/GroupSpec.h"
#include "core/collab/PartitionPlan.h"
#include "core/dht/RecordAdmission.h"
#include "core/net/WireMessage.h"

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace sahaj::collab {

class DealerPool;

struct MatchmakingOptions {
    // Hash of the parameter names, shapes, dtypes and the run manifest (16 to 64 bytes): peers with other
    // hashes never group.
    std::string schemaHash;
    // How long a leader gathers members after declaring, while they keep coming: past it, it begins once
    // nobody new joined for joinQuietTime (if at most a fifth of the expected peers, or one, is still out,
    // or nobody came at all), and at the latest at maxGatherTime (its declaration's expiration is now + the
    // larger of the two).
    std::chrono::milliseconds gatherTime{15000};
    std::chrono::milliseconds maxGatherTime{0};
    std::chrono::milliseconds joinQuietTime{2000};
    // A leader ends gathering early once every peer that declared for the epoch has joined, but not before
    // this much of the gather time has passed: clients declare nothing, so this is their time to ask.
    std::chrono::milliseconds minGatherTime{5000};
    // The whole formGroup call; past it the peer gives up and forms a group of one.
    std::chrono::milliseconds deadline{60000};
    // A request the leader has not answered in this time is taken as a refusal.
    std::chrono::milliseconds joinReplyTimeout{5000};
    // An accepted member waits for GroupBegin until the leader's expiration plus this.
    std::chrono::milliseconds beginGrace{5000};
    // How often a leader (or a client that found no leader) reads the declarations again.
    std::chrono::milliseconds refreshInterval{1000};
    // The most a reading of the declarations takes (join requests that come meanwhile wait for its end).
    std::chrono::milliseconds dhtTimeout{2000};
    // The most members a group may have: a leader takes no more, and a GroupBegin listing more is refused.
    std::size_t maxGroupSize = 64;
    // A leader that failed this peer twice in a row, or broke the plan once, is not followed for this long.
    std::chrono::seconds distrustLeadersFor{600};
    // What a leader puts in its GroupBegin.
    wire::Encoding encoding;
    std::int64_t vectorSize = 0;
    std::int64_t partElements = PartitionPlan::kDefaultPartElements;
    // Set in runs that admit peers by token: a join request, and every member of a GroupBegin, must carry
    // a valid token of its peer, whose CURVE key is then the one expected at that peer's endpoint.
    std::optional<dht::RecordAdmission> admission;
    // A leader caps the bandwidths its members claim by what it saw them deliver (nullptr: taken as
    // claimed). Owned by the caller, on the same thread.
    const BandwidthClaims* claims = nullptr;
    // Where a follower takes its DEALER to a leader from, and leaves it (nullptr: a new one each time, closed
    // after). Owned by the caller, on the same thread.
    DealerPool* dealers = nullptr;
    // Testing a run's defences only (GradientAttack::SplitPlans): as a leader, it declares the shortest
    // gather any peer could, so that it leads often, and gives each member another plan (that member's
    // bandwidth scaled up, each plan valid on its own). False for every honest peer.
    bool splitPlans = false;
};

struct MatchmakingResult {
    // The agreed group; a group of one (this peer alone) when no group could be formed.
    GroupSpec group;
    // Messages for other purposes that reached the ROUTER meanwhile (parts of the group just begun): pass
    // them to AllReduceRound::run.
    std::vector<net::WireMessage> early;
    bool leader = false;  // this peer led the group
    std::string leaderId; // the peer that began the group (this peer's id when it led; empty when alone)
    // Each leader this matchmaking stopped following, and why, naming it by its whole id (for the log).
    std::vector<std::string> problems;
};

} // namespace sahaj::collab
