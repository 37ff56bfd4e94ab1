#include "core/engine/CollaborationLink.h"

#include "core/collab/AuditChoice.h"
#include "core/collab/DealerPool.h"
#include "core/collab/DonorHistory.h"
#include "core/collab/LatencyProbe.h"
#include "core/collab/LoneStepRule.h"
#include "core/collab/Matchmaking.h"
#include "core/collab/PeerBoard.h"
#include "core/collab/ProgressAggregator.h"
#include "core/collab/ProgressBoard.h"
#include "core/collab/ProgressRefreshPolicy.h"
#include "core/collab/ProgressTracker.h"
#include "core/collab/RoundStartQuorum.h"
#include "core/collab/RoundStash.h"
#include "core/collab/StateChunker.h"
#include "core/collab/StateDownloader.h"
#include "core/collab/StateServer.h"
#include "core/collab/TensorEncoding.h"
#include "core/collab/WeightBounds.h"
#include "core/dht/DhtNode.h"
#include "core/dht/DhtNodeOptions.h"
#include "core/dht/RecordRules.h"
#include "core/engine/DownloadedState.h"
#include "core/engine/GradientAttack.h"
#include "core/engine/RevocationFollower.h"
#include "core/net/ConnectionPacer.h"
#include "core/net/CoordinatorClock.h"
#include "core/net/LinkBandwidth.h"
#include "core/net/MessageCodec.h"
#include "core/net/MessageValidator.h"
#include "core/net/ProtocolViolation.h"
#include "core/net/SocketFactory.h"
#include "core/net/WireLimits.h"
#include "core/net/ZapHandler.h"
#include "core/security/AccessToken.h"
#include "core/security/CurveKeyPair.h"
#include "core/security/PeerIdentity.h"
#include "core/security/RevokedPeers.h"

#include <QCryptographicHash>
#include <QDateTime>

#include <algorithm>
#include <cstdlib>
#include <deque>
#include <future>
#include <limits>
#include <map>
#include <random>
#include <stdexcept>
#include <utility>

namespace sahaj::engine {

namespace {

using namespace std::chrono_literals;
using SystemClock = std::chrono::system_clock;
using SteadyClock = std::chrono::steady_clock;

// When at least half of a round's other members sent messages outside this clock's replay window, all
// from the same side, it is this clock that is off: what to tell the user (else nothing). The others
// refuse its messages meanwhile, and it theirs (docs/security.md).
std::string clockWarning(const std::map<std::string, std::int64_t>& skewsMs, std::size_t others) {
    if (skewsMs.empty() || 2 * skewsMs.size() < others)
        return {};
    std::vector<std::int64_t> skews;
    for (const auto& [peer, skew] : skewsMs)
        skews.push_back(skew);
    std::sort(skews.begin(), skews.end());
    if ((skews.front() < 0) != (skews.back() < 0))
        return {};
    const std::int64_t median = skews[skews.size() / 2];
    return "this computer's clock is about " + std::to_string(std::abs(median) / 1000) + " s " +
           (median > 0 ? "behind" : "ahead of") + " the clocks of " + std::to_string(skews.size()) + " of " +
           std::to_string(others) +
           " peers in its group, who refuse its messages: set the clock right (automatic date and time)";
}

// The fewest other peers at an epoch from which a group without a quorum of them is left (maybeReleaseGroup).
constexpr std::size_t kLeaveGroupsFrom = 3;
// Groups left that this peer still answers for (each lives one round, so a few suffice).
constexpr std::size_t kMaxLeftGroups = 16;
// Peers whose unfollowed epoch claims are remembered, so that each is logged once (then it starts over).
constexpr std::size_t kMaxUnfollowedNoted = 4096;
constexpr auto kAnnouncePeriod = 10s;
// How long a peer waits to try a state download again after one failed (no donor, or none delivered).
constexpr auto kDownloadRetry = 3s;
// How often the peer list for the app is read again from the DHT.
constexpr auto kSightingPeriod = 15s;
// How often the kept DEALERs are emptied (DealerPool::drainKept): what one holds is at most this much of
// what arrives on it.
constexpr auto kDealerDrainPeriod = 1s;
// The oldest peer list a state download takes its donors from (else it asks for a new reading first).
constexpr auto kFreshSightings = 3s;
// How long a latency measurement waits for the connections to open (looked at between the thread's other
// work).
constexpr auto kPingBudget = 3s;
// How long a leaving peer waits for its departure records to be stored.
constexpr auto kDepartureWait = 3s;

// A newcomer that hears of nobody for this long takes itself to be the first peer of the run.
constexpr auto kAloneAfter = 8s;

// Milliseconds from `then` to now, as the trace writes them.
std::string msSince(SteadyClock::time_point then) {
    return std::to_string(
        std::chrono::duration_cast<std::chrono::milliseconds>(SteadyClock::now() - then).count());
}

// The state round's group id, derived from the gradient round's: every member derives the same one, and
// the state round's parts can never be mistaken for the gradient round's.
std::string stateGroupId(const std::string& groupId) {
    const QByteArray derived = QCryptographicHash::hash(
        QByteArray::fromStdString(groupId) + QByteArrayLiteral("/state"), QCryptographicHash::Sha256);
    return derived.left(16).toStdString();
}

// The state round's group: the gradient round's members and partition, scaled to the state vector's
// size (integer shares, the remainder to the largest fractions, ties to the earlier member: the same on
// every member), fp32 so that averaging loses nothing, every sender weighted 1; its group id from
// stateGroupId.
collab::GroupSpec stateSpec(collab::GroupSpec spec, std::int64_t size) {
    spec.groupId = stateGroupId(spec.groupId);
    spec.encoding = collab::TensorEncoding::fp32();
    const std::int64_t total = spec.vectorSize;
    std::vector<std::pair<std::int64_t, std::size_t>> remainders;
    std::int64_t assigned = 0;
    for (std::size_t i = 0; i < spec.spanCounts.size(); ++i) {
        const __int128 product = static_cast<__int128>(spec.spanCounts[i]) * size;
        spec.spanCounts[i] = static_cast<std::int64_t>(product / total);
        remainders.emplace_back(static_cast<std::int64_t>(product % total), i);
        assigned += spec.spanCounts[i];
    }
    std::stable_sort(remainders.begin(), remainders.end(),
                     [](const auto& a, const auto& b) { return a.first > b.first; });
    for (std::size_t k = 0; assigned < size; ++k, ++assigned)
        ++spec.spanCounts[remainders[k % remainders.size()].second];
    spec.vectorSize = size;
    for (collab::GroupMember& member : spec.members)
        member.weight = member.sends() ? 1.0 : 0.0;
    return spec;
}

} // namespace

// A round the collaboration thread steps, and what its outcome needs.
struct CollaborationLink::RunningRound {
    std::unique_ptr<collab::AllReduceRound> round;
    collab::GroupSpec spec;
    std::string leaderId; // who began the group (FormedGroup::leaderId)
    bool state = false;
    std::chrono::milliseconds connectWait{};
    SteadyClock::time_point began;
    std::promise<RoundOutcome> outcome; // the training thread waits on it in average()
};

struct CollaborationLink::Session {
    Session(const LinkOptions& options, std::string peerIdBytes)
        : options(options), zap(zapHandler(context, options)),
          sockets(context, peerIdBytes, socketOptions(options), curve(options)),
          codec(options.runId.toStdString(), peerIdBytes), dht(dhtOptions(options, zap.get(), revoked)),
          revocations(dht, options.runId, revoked, options.revocationsPath),
          progressBoard(dht, options.runId), peerBoard(dht, options.runId),
          tracker(trackerOptions(options, peerIdBytes)), refresh(options.progressRefresh), server(codec),
          started(SteadyClock::now()), loneStep(options.matchmaking.deadline) {
        if (options.security) {
            token = options.security->token;
            codec.authenticateSenders([zap = zap.get()](const std::string& peerId) {
                return zap->isBanned(peerId, QDateTime::currentMSecsSinceEpoch());
            });
            admit(*zap, token);
        }
        if (options.role != wire::ROLE_CLIENT) {
            router = sockets.bindRouter(options.listenEndpoint);
            endpoint = net::SocketFactory::boundEndpoint(router);
        }
        collab::MatchmakingOptions matchmakingOptions = options.matchmaking;
        matchmakingOptions.schemaHash = options.schemaHash;
        matchmakingOptions.encoding = options.encoding;
        matchmakingOptions.vectorSize = options.vectorSize;
        if (options.security)
            matchmakingOptions.admission = options.security->admission;
        matchmakingOptions.claims = &claims;
        matchmakingOptions.dealers = &dealers;
        matchmaking =
            std::make_unique<collab::Matchmaking>(dht, codec, sockets, routerOrNull(), matchmakingOptions);
        matchmaking->onTransition(options.trace);
        bandwidth.setCaps(options.uploadBytesPerSecond, options.downloadBytesPerSecond);
    }

    // Every valid token read from the DHT admits its CURVE key: the peers one may meet in a group are the
    // ones whose records one reads.
    static dht::DhtNodeOptions dhtOptions(const LinkOptions& options, net::ZapHandler* zap,
                                          std::shared_ptr<const security::RevokedPeers> revoked) {
        dht::DhtNodeOptions result;
        result.bindAddress = options.dhtBindAddress;
        result.port = options.dhtPort;
        result.bootstrap = options.bootstrap;
        result.identity = options.identity;
        if (options.security) {
            result.admission = options.security->admission;
            result.admission->revoked = std::move(revoked);
            result.credential = options.security->token;
            result.onToken = [zap](const security::AccessToken& token) { admit(*zap, token); };
            // Records are stamped and read on the coordinator's time (net::CoordinatorClock).
            if (const std::shared_ptr<const net::CoordinatorClock> clock = options.security->clock)
                result.clock = [clock] { return clock->now(); };
        }
        return result;
    }

    // The largest frames the run's plan makes (SocketFactory::Options): a ROUTER receives parts, in the
    // run's encoding or fp32 (state rounds), and small requests; a DEALER also receives averages, state
    // chunks and group plans. With the high-water marks, what one connection can make this peer hold:
    // 256 parts of 256 KiB (64 MiB) at the default part size, where any peer could queue 16 GiB before.
    static net::SocketFactory::Options socketOptions(const LinkOptions& options) {
        const auto parts = static_cast<std::uint64_t>(options.matchmaking.partElements);
        const std::uint64_t partBytes =
            std::max(net::MessageValidator::encodedBytes(options.encoding, parts),
                     net::MessageValidator::encodedBytes(collab::TensorEncoding::fp32(), parts));
        constexpr std::uint64_t kSmallRequests = 64 * 1024;
        net::SocketFactory::Options result;
        result.routerMaxMessageBytes = static_cast<std::int64_t>(std::max(partBytes, kSmallRequests));
        result.dealerMaxMessageBytes = static_cast<std::int64_t>(
            std::max({partBytes, std::uint64_t{collab::StateChunker::kDefaultChunkBytes},
                      std::uint64_t{net::WireLimits::kMaxEnvelopeBytes}}));
        return result;
    }

    static std::unique_ptr<net::ZapHandler> zapHandler(zmq::context_t& context, const LinkOptions& options) {
        if (!options.security)
            return nullptr;
        return std::make_unique<net::ZapHandler>(context,
                                                 net::ZapHandler::runDomain(options.runId.toStdString()));
    }

    static std::optional<net::SocketFactory::Curve> curve(const LinkOptions& options) {
        if (!options.security)
            return std::nullopt;
        return net::SocketFactory::Curve{options.security->curve->publicKey().toStdString(),
                                         options.security->curve->secretKey().toStdString(),
                                         net::ZapHandler::runDomain(options.runId.toStdString())};
    }

    static void admit(net::ZapHandler& zap, const security::AccessToken& token) {
        zap.admit(token.curvePublicKey().toStdString(), token.peer().bytes().toStdString(),
                  token.expiresAt() * 1000);
    }

    static void admit(net::ZapHandler& zap, const QByteArray& token) {
        admit(zap, security::AccessToken::fromBytes(token));
    }

    static collab::ProgressTrackerOptions trackerOptions(const LinkOptions& options, const std::string& id) {
        collab::ProgressTrackerOptions result;
        result.peerId = id;
        result.clientMode = options.role == wire::ROLE_CLIENT;
        result.targetBatchSize = options.targetBatchSize;
        result.recordTtl = options.recordTtl;
        return result;
    }

    zmq::socket_t* routerOrNull() { return options.role == wire::ROLE_CLIENT ? nullptr : &router; }

    // Each connection of a round may send this much (0: no pacing while the figure is a guess).
    double pacingBytesPerSecond() const {
        if (options.claimedBytesPerSecond > 0.0)
            return net::ConnectionPacer::rateFor(options.claimedBytesPerSecond);
        return bandwidth.pacingBytesPerSecond();
    }

    // Within what the wire accepts (net::WireLimits::plausibleBandwidth), so that no peer refuses an honest
    // declaration: a measurement past the bounds says the link is at least that slow or that fast.
    double declaredBandwidth() const {
        const double perValue = collab::TensorEncoding::bytesPerValue(options.encoding);
        const double values = options.claimedBytesPerSecond > 0.0 ? options.claimedBytesPerSecond / perValue
                                                                  : bandwidth.valuesPerSecond(perValue);
        return values > 0.0
                   ? std::clamp(values, net::WireLimits::kMinBandwidth, net::WireLimits::kMaxBandwidth)
                   : 0.0;
    }

    const LinkOptions& options;
    // The peers the organiser revoked, as this peer learnt them: the DHT's reader refuses their records.
    std::shared_ptr<security::RevokedPeers> revoked = std::make_shared<security::RevokedPeers>();
    zmq::context_t context;
    std::unique_ptr<net::ZapHandler> zap; // before the sockets and the DHT, which rely on it
    net::SocketFactory sockets;
    net::MessageCodec codec;
    zmq::socket_t router;
    std::string endpoint;
    dht::DhtNode dht;
    RevocationFollower revocations;
    collab::ProgressBoard progressBoard;
    collab::PeerBoard peerBoard;
    collab::ProgressTracker tracker;
    collab::ProgressRefreshPolicy refresh;
    collab::StateServer server;
    collab::BandwidthClaims claims;                 // before matchmaking, which reads it
    collab::DealerPool dealers{sockets};            // before matchmaking and the rounds, which use it
    std::mt19937_64 random{std::random_device{}()}; // which spans this peer audits (AuditChoice)
    std::unique_ptr<collab::Matchmaking> matchmaking;
    net::LinkBandwidth bandwidth;
    collab::LatencyProbe probe;
    collab::DonorHistory donorHistory;
    // The state download under way (maybeDownloadState starts it, stepDownload moves it on), with the
    // epoch this peer was at when it began.
    std::unique_ptr<collab::StateDownloader> download;
    std::uint64_t downloadFrom = 0;
    // The epoch of the matchmaking under way (maybeFormGroup starts it, stepMatchmaking moves it on), and
    // when it began.
    std::uint64_t matchmakingEpoch = 0;
    SteadyClock::time_point matchmakingBegan{};
    // The round under way (average() starts it for the training thread, stepRound moves it on).
    std::unique_ptr<RunningRound> round;

    SteadyClock::time_point started;
    SteadyClock::time_point nextAnnounce{};
    SteadyClock::time_point recordPublished{}; // this peer's progress record, last put in the DHT
    SteadyClock::time_point nextDownloadAttempt{};
    SteadyClock::time_point epochChangedAt{};
    GroupPhase phase = GroupPhase::Idle;
    bool synced = false;         // this peer knows it is not a newcomer behind the others
    bool downloadChases = false; // the download under way was begun Chasing
    bool chaseFailed = false;    // no donor had it: step alone after all
    // Whether this peer, its batch full and alone, steps alone or looks again (placeGroup).
    collab::LoneStepRule loneStep;
    collab::RoundStash stash; // parts and connection notices for a round not begun here yet
    // Groups this peer left before their round (maybeReleaseGroup), with its span in each: their members
    // are told, when their messages arrive, that the span failed, so that none waits for it to time out.
    std::deque<std::pair<std::string, std::uint32_t>> leftGroups;
    // Epoch claims not followed, already said in the log: the last epoch each peer claimed.
    std::map<std::string, std::uint64_t> unfollowedNoted;
    std::optional<FormedGroup> pending; // formed, waiting for the batch to fill
    // Per reason, the epoch at which it last sent this peer back to matchmaking (regroupOnce): once an
    // epoch each.
    std::map<RegroupReason, std::uint64_t> regroupedAt;
    SteadyClock::time_point pendingSince{};
    // The gradient round this peer began last, and at which epoch: its progress records say so while the
    // epoch lasts (PeerProgress::averagingGroup), for the members still waiting to begin it.
    std::pair<std::string, std::uint64_t> averaging;
    // What othersBeganFirst last looked at for the pending group (the stash's messages kept, the progress
    // readings): it looks again only when one of them moved. Reset for each group placed.
    std::optional<std::pair<std::uint64_t, std::uint64_t>> quorumLookedAt;
    std::string lastProblem;
    std::shared_ptr<const std::vector<collab::PeerAnnouncement>> sightings;
    SteadyClock::time_point sightingsAt{}; // when they came
    bool probeDue = false;                 // sightings came that the latency probe has not started on
    SteadyClock::time_point nextSighting{};
    SteadyClock::time_point nextDealerDrain{};
    // A matchmaking that ended alone, its group not yet placed: the progress records read after it decide
    // (placeGroupOfOne), once a reading newer than this count of readings (progressReadings) came.
    std::optional<collab::MatchmakingResult> aloneResult;
    std::uint64_t aloneAfterReading = 0;
    std::uint64_t progressReadings = 0; // readings of the progress records taken (takeProgress)
    SteadyClock::time_point lastReadingAt{};
    // The last reading that found the collaboration at this peer's own epoch, and when: a peer that first
    // looks for a group once it sees the others past its epoch says what it saw of its epoch before.
    std::optional<collab::GlobalProgress> ownEpochReading;
    SteadyClock::time_point ownEpochReadingAt{};
    std::uint64_t bytesSent = 0;
    std::uint64_t bytesReceived = 0;
    QByteArray token; // this peer's current access token (runs that admit by token)
    SteadyClock::time_point nextRenewal{};
};

CollaborationLink::CollaborationLink(LinkOptions options) : options_(std::move(options)) {
    if (!options_.identity)
        throw std::invalid_argument("a collaborating peer needs an identity");
    if (options_.vectorSize <= 0 || options_.stateVectorSize <= 0)
        throw std::invalid_argument("the averaged vectors must not be empty");
    if (options_.recordTtl < 2s || options_.recordTtl > dht::RecordRules::kMaxTtl)
        throw std::invalid_argument("the DHT records' lifetime must be 2 to " +
                                    std::to_string(dht::RecordRules::kMaxTtl.count()) + " s");
    // A record is replaced before it expires: the longest refresh period is half its lifetime.
    options_.progressRefresh.maxPeriod =
        std::min<std::chrono::milliseconds>(options_.progressRefresh.maxPeriod, options_.recordTtl / 2);
    options_.progressRefresh.minPeriod =
        std::min(options_.progressRefresh.minPeriod, options_.progressRefresh.maxPeriod);
    if (options_.role == wire::ROLE_CLIENT)
        options_.stateDonor = false;
    peerId_ = options_.identity->id().bytes().toStdString();
    session_ = std::make_unique<Session>(options_, peerId_);
    endpoint_ = session_->endpoint;
    thread_ = std::thread([this] { threadMain(); });
}

CollaborationLink::~CollaborationLink() {
    stopping_ = true;
    if (thread_.joinable())
        thread_.join();
    // Departure: replace this peer's records by ones that expire at once, so that the others stop
    // counting its progress and stop offering it as a donor.
    try {
        collab::PeerProgress last = session_->tracker.localRecord(session_->dht.now());
        last.samplesAccumulated = 0;
        last.samplesPerSecond = 0.0;
        session_->progressBoard.publish(last, 1s);
        collab::PeerAnnouncement gone;
        gone.role = options_.role;
        session_->peerBoard.publish(gone, 1s);
        // Puts are asynchronous: without this wait the node would shut down before they reach anyone, and
        // the others would count this peer until its old records expire (a minute).
        session_->dht.waitForPuts(kDepartureWait);
    } catch (const std::exception&) {
        // Leaving anyway: the records expire on their own.
    }
}

std::uint16_t CollaborationLink::dhtPort() const {
    return session_->dht.port();
}

std::vector<QString> CollaborationLink::knownDhtNodes() const {
    return session_->dht.knownNodeAddresses();
}

void CollaborationLink::reportProgress(std::uint64_t samples, double samplesPerSecond) {
    const std::lock_guard lock(mutex_);
    reportedSamples_ = samples;
    reportedRate_ = samplesPerSecond;
}

void CollaborationLink::restartAccumulation() {
    const std::lock_guard lock(mutex_);
    reportedSamples_ = 0;
}

std::optional<FormedGroup> CollaborationLink::takeGroup() {
    const std::lock_guard lock(mutex_);
    std::optional<FormedGroup> group = std::move(formed_);
    formed_.reset();
    return group;
}

std::optional<collab::TrainingState> CollaborationLink::takeState() {
    const std::lock_guard lock(mutex_);
    std::optional<collab::TrainingState> state = std::move(downloaded_);
    downloaded_.reset();
    return state;
}

bool CollaborationLink::hasWaiting() const {
    const std::lock_guard lock(mutex_);
    return formed_.has_value() || downloaded_.has_value();
}

LinkStatus CollaborationLink::status() const {
    const std::lock_guard lock(mutex_);
    return status_;
}

void CollaborationLink::call(std::function<void(Session&)> task) {
    std::promise<void> done;
    std::future<void> finished = done.get_future();
    {
        const std::lock_guard lock(mutex_);
        tasks_.push_back([&task, &done](Session& session) {
            try {
                task(session);
                done.set_value();
            } catch (...) {
                done.set_exception(std::current_exception());
            }
        });
    }
    finished.get();
}

RoundOutcome CollaborationLink::average(FormedGroup& formed, std::vector<float> local, double weight,
                                        bool state) {
    // The collaboration thread steps the round between its other duties and hands the outcome over here.
    return beginAverage(formed, std::move(local), weight, state).get();
}

std::future<RoundOutcome> CollaborationLink::beginAverage(FormedGroup& formed, std::vector<float> local,
                                                          double weight, bool state) {
    std::promise<RoundOutcome> promise;
    std::future<RoundOutcome> outcome = promise.get_future();
    call([&](Session& s) {
        collab::GroupSpec spec = state ? stateSpec(formed.group, options_.stateVectorSize) : formed.group;
        const int me = spec.indexOf(peerId_);
        spec.members[static_cast<std::size_t>(me)].weight = weight;
        if (spec.members.size() < 2) {
            RoundOutcome alone;
            alone.values = std::move(local);
            alone.alone = alone.complete = true;
            promise.set_value(std::move(alone));
            return;
        }
        std::vector<net::WireMessage> early;
        if (!state)
            early = std::move(formed.early);
        // What is left from earlier epochs (parts that came after their round ended, from a sender it
        // had excluded) goes too: it has no round to go to.
        for (net::WireMessage& message : s.stash.take(spec.groupId, spec.epoch))
            early.push_back(std::move(message));
        collab::AllReduceOptions roundOptions = options_.allReduce;
        // The gradient round and its state round share members and epoch: neither's messages are a sign
        // of a split group in the other.
        roundOptions.companionGroup = state ? formed.group.groupId : stateGroupId(formed.group.groupId);
        roundOptions.uploadBytesPerSecond = options_.uploadBytesPerSecond;
        roundOptions.pacingBytesPerSecond = s.pacingBytesPerSecond();
        // A gradient part weighs the samples behind it, within what its sender reported; a state part
        // weighs 1, whoever sends it (docs/protocol.md): without that bound, one member's weight of 10^12
        // would make its parameters and moments everyone's.
        roundOptions.maxWeights =
            state ? std::vector<double>(spec.members.size(), 1.0)
                  : collab::WeightBounds::of(spec, s.tracker.remoteRecords(), s.dht.now());
        // Within its own words, a gradient part counts for at most twice the group's median claim: a liar
        // that claims 10^12 samples everywhere does not buy the mean (docs/security.md).
        if (!state)
            roundOptions.weightCaps =
                collab::WeightBounds::countedAtMost(spec, s.tracker.remoteRecords(), s.dht.now());
        roundOptions.floors = state ? options_.stateFloors : std::vector<collab::ValueFloor>{};
        roundOptions.downloadBytesPerSecond = options_.downloadBytesPerSecond;
        // Every aggregator seals its span and every member passes the seals on: one that sends members
        // different averages is caught with its own signatures (docs/protocol.md, "Sealed averages").
        roundOptions.sealWith = options_.identity.get();
        // A member banned since the group formed (a liar caught in its gradient round, before the state
        // round) is refused anyway: it is left out at once rather than after its timeouts (15 s and more).
        roundOptions.excluded = bannedMembers(s, spec);
        // A few other spans are audited, chosen here, where no aggregator sees the choice before its seal
        // binds it to what it sent (docs/protocol.md, "Audited averages").
        roundOptions.audited = collab::AuditChoice::pick(spec, s.codec.peerId(), roundOptions.excluded,
                                                         options_.auditedSpans, s.random);
        if (options_.equivocate)
            roundOptions.alterReplies = GradientAttack::alterReply;
        auto running = std::make_unique<RunningRound>();
        running->round = std::make_unique<collab::AllReduceRound>(spec, s.codec, s.sockets, s.routerOrNull(),
                                                                  roundOptions);
        running->round->onTransition([this](const std::string& line) { trace(line); });
        running->spec = std::move(spec);
        running->leaderId = formed.leaderId;
        running->state = state;
        running->connectWait = roundOptions.connectWait;
        running->began = SteadyClock::now();
        running->outcome = std::move(promise);
        running->round->start(std::move(local), std::move(early));
        s.round = std::move(running);
        if (!state) {
            // The members of the group still waiting for the batch to fill learn it at their next reading.
            s.averaging = {formed.group.groupId, formed.group.epoch};
            publishRecord(s, s.dht.now());
        }
        stepRound(s);
    });
    return outcome;
}

// Moves the round on by what arrived, without waiting (it owns the ROUTER meanwhile: anything but its own
// messages is served here at once); once it is over, hands the outcome to the training thread waiting in
// average().
void CollaborationLink::stepRound(Session& s) {
    if (!s.round)
        return;
    try {
        s.round->round->step();
        for (net::WireMessage& other : s.round->round->takeOtherMessages())
            handleRouterMessage(s, std::move(other));
        if (s.round->round->phase() == collab::AllReduceRound::Phase::Done)
            finishRound(s);
    } catch (...) {
        if (const std::unique_ptr<RunningRound> running = std::move(s.round))
            running->outcome.set_exception(std::current_exception());
    }
}

void CollaborationLink::finishRound(Session& s) {
    const std::unique_ptr<RunningRound> running = std::move(s.round);
    try {
        running->outcome.set_value(outcomeOf(s, *running));
    } catch (...) {
        running->outcome.set_exception(std::current_exception());
    }
}

RoundOutcome CollaborationLink::outcomeOf(Session& s, RunningRound& running) {
    const collab::GroupSpec& spec = running.spec;
    const bool state = running.state;
    RoundOutcome outcome;
    running.round->keepDealersIn(s.dealers);
    collab::AllReduceResult result = running.round->takeResult();
    for (net::WireMessage& other : result.otherMessages)
        handleRouterMessage(s, std::move(other));
    const auto took = SteadyClock::now() - running.began;
    // What this round achieved is what the next group is told this peer can do.
    s.bandwidth.addRound(result.bytesSent, result.bytesReceived, took);
    s.bytesSent += result.bytesSent;
    s.bytesReceived += result.bytesReceived;
    if (!result.unconnected.empty()) {
        std::string late;
        for (const std::string& peerId : result.unconnected)
            late +=
                (late.empty() ? "" : ", ") + QByteArray::fromStdString(peerId).toHex().left(16).toStdString();
        note("epoch " + std::to_string(spec.epoch) + ": began streaming without " + late +
             ", not connected within " + std::to_string(running.connectWait.count()) + " ms");
    }
    for (const std::string& audit : result.audits)
        trace("epoch " + std::to_string(spec.epoch) + ": " + audit);
    outcome.values = std::move(result.values);
    outcome.complete = result.complete();
    outcome.violations = std::move(result.violations);
    // A member left the group before its round: the rest would step without its span, each with its
    // own values there, apart from each other and from the group the leaver joined (seen: a coordinator
    // left a pair, and the trainer it left stepped alone in the run's last epoch). They all hear it
    // from the leaver and look for a group again, keeping their gradient, once an epoch: a liar that
    // says it every time must not stall anyone.
    if (!state && !result.leftBeforeRound.empty())
        regroupOnce(
            s, outcome, RegroupReason::MemberLeft, spec.epoch,
            "peer " +
                QByteArray::fromStdString(result.leftBeforeRound.front()).toHex().left(16).toStdString() +
                " left the group before its round: looking for a group again rather than stepping "
                "without it");
    // More of the group's other members misfit this member's plan than fit it: its leader gave members
    // different plans (each valid on its own), so the values hold little but this member's own. The leader
    // is not followed for a while (a member can feign a misfit, but not outnumber those that fit), and this
    // peer looks for a group again, keeping its gradient, once an epoch as above: stepping with its own
    // values would part it from the rest until the next state round. Silent members count neither way.
    if (const std::size_t others = spec.members.size() - 1; result.plansDiffer()) {
        if (!running.leaderId.empty() && running.leaderId != peerId_) {
            const std::string leader = QByteArray::fromStdString(running.leaderId).toHex().toStdString();
            s.matchmaking->distrustLeader(running.leaderId);
            note("epoch " + std::to_string(spec.epoch) + ": " + std::to_string(result.planMismatches.size()) +
                 " of the " + std::to_string(others) +
                 " other members sent messages that do not fit the plan leader " + leader +
                 " gave this peer, and fewer fitted it: that leader gave members different plans; not "
                 "followed for " +
                 std::to_string(options_.matchmaking.distrustLeadersFor.count()) + " s");
        }
        if (!state)
            regroupOnce(
                s, outcome, RegroupReason::PlansDiffer, spec.epoch,
                "the group's plans did not fit: looking for a group again rather than stepping alone");
    }
    // A state round's span averaged by a member that put too much weight on its parts holds what that
    // member chose (its own parameters, under a weight of 10^12): the round is not taken, by any member
    // that saw the offence, whether the mean came before or after it. Otherwise a member that took the
    // mean (it came first) and one that refused it (the ban came first) part, and nothing reunites them
    // before the next state round.
    if (state)
        for (const std::string& peerId : result.overweightSpansTaken(spec)) {
            const std::string line = "the state round is not taken: peer " +
                                     QByteArray::fromStdString(peerId).toHex().toStdString() +
                                     " put too much weight on its parts and averaged a span of it";
            note("epoch " + std::to_string(spec.epoch) + ": " + line);
            outcome.violations.push_back(line);
            outcome.complete = false;
        }
    outcome.seconds = result.seconds;
    outcome.bytesSent = result.bytesSent;
    outcome.bytesReceived = result.bytesReceived;
    outcome.pacedConnections = result.pacedConnections;
    outcome.excluded = std::move(result.excludedSenders);
    for (const collab::CappedWeight& capped : result.cappedWeights) {
        // Not an offence (a fast honest peer may be above the group's median), but said with its id.
        const std::string line = "counted the weight " + std::to_string(capped.sent) + " of peer " +
                                 QByteArray::fromStdString(capped.peerId).toHex().toStdString() + " as " +
                                 std::to_string(capped.counted) + ", twice the group's median claim";
        note("epoch " + std::to_string(spec.epoch) + ": " + line);
        outcome.violations.push_back(line);
    }
    outcome.countedWeights = std::move(result.countedWeights);
    if (const std::string warning = clockWarning(result.clockSkewsMs, spec.members.size() - 1);
        !warning.empty()) {
        s.lastProblem = warning;
        note(warning);
    }
    banViolators(s, result.violators);
    if (!state)
        for (const auto& [peerId, rate] : result.senderRates)
            s.claims.observe(peerId, rate);
    return outcome;
}

// The round's values are not to be stepped with: look for a group again, keeping the gradient, but once an
// epoch for each reason, so that a liar that causes one every time stalls nobody. Once an epoch for all
// reasons together was too few: a split-plans leader's regroup used it up, the coordinator then left the
// pair the peer formed next (too few peers at its epoch), and the peer stepped on its own values, ahead of
// the others and alone for good (seen once: tst_collaboration_processes, split-plans).
void CollaborationLink::regroupOnce(Session& s, RoundOutcome& outcome, RegroupReason reason,
                                    std::uint64_t epoch, const std::string& why) {
    if (outcome.regroup)
        return;
    if (const auto last = s.regroupedAt.find(reason); last != s.regroupedAt.end() && last->second == epoch)
        return;
    s.regroupedAt[reason] = epoch;
    outcome.regroup = true;
    outcome.complete = false;
    note("epoch " + std::to_string(epoch) + ": " + why);
}

const char* CollaborationLink::nameOf(GroupPhase phase) {
    switch (phase) {
    case GroupPhase::Idle:
        return "idle";
    case GroupPhase::Matchmaking:
        return "matchmaking";
    case GroupPhase::AloneReading:
        return "alone, reading";
    case GroupPhase::Pending:
        return "pending";
    case GroupPhase::HandedOver:
        return "handed over";
    case GroupPhase::Chasing:
        return "chasing";
    case GroupPhase::Downloading:
        return "downloading";
    case GroupPhase::StateLoaded:
        return "state loaded";
    }
    return "?";
}

void CollaborationLink::enter(Session& s, GroupPhase next, const std::string& why) {
    trace(std::string("link: ") + nameOf(s.phase) + " -> " + nameOf(next) + ": " + why);
    s.phase = next;
}

void CollaborationLink::epochCompleted(std::uint64_t epoch,
                                       std::shared_ptr<const collab::StateChunker> snapshot) {
    call([&](Session& s) {
        if (epoch > s.tracker.localEpoch()) {
            s.tracker.onEpochCompleted(epoch, s.dht.now());
            s.epochChangedAt = SteadyClock::now();
        }
        if (options_.stateDonor)
            s.server.offer(std::move(snapshot));
        if (s.phase == GroupPhase::HandedOver || s.phase == GroupPhase::StateLoaded)
            enter(s, GroupPhase::Idle, "epoch " + std::to_string(s.tracker.localEpoch()) + " begins here");
        s.nextAnnounce = {}; // the others should learn the new epoch now
    });
}

std::vector<std::string> CollaborationLink::bannedMembers(const Session& s, const collab::GroupSpec& spec) {
    std::vector<std::string> banned;
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    for (const collab::GroupMember& member : spec.members)
        if (isBanned(s, member.peerId, now))
            banned.push_back(member.peerId);
    return banned;
}

bool CollaborationLink::isBanned(const Session& s, const std::string& peerId, qint64 nowMs) {
    return s.zap && s.zap->isBanned(peerId, nowMs);
}

void CollaborationLink::banViolators(Session& s,
                                     const std::vector<std::pair<std::string, std::string>>& violators) {
    if (!s.zap)
        return;
    const qint64 until = QDateTime::currentMSecsSinceEpoch() +
                         std::chrono::duration_cast<std::chrono::milliseconds>(options_.banTime).count();
    for (const auto& [peerId, why] : violators) {
        s.zap->ban(peerId, until);
        note("banned peer " + QByteArray::fromStdString(peerId).toHex().toStdString() + " for " +
             std::to_string(options_.banTime.count()) + " s: " + why);
    }
}

void CollaborationLink::followRevocations(Session& s) {
    if (!s.zap)
        return;
    RevocationFollower::Update update = s.revocations.step(SteadyClock::now());
    for (const security::PeerId& peer : update.revoked) {
        // Its handshakes and messages are refused for as long as this peer runs; its records already are.
        s.zap->ban(peer.bytes().toStdString(), std::numeric_limits<std::int64_t>::max());
        note("peer " + peer.toHex().toStdString() +
             " is revoked by the run's organiser: its records, connections and messages are refused");
    }
    if (!update.newProblem.isEmpty())
        note("cannot read the changed revocations: " + update.newProblem.toStdString());
}

void CollaborationLink::renewToken(Session& s) {
    // A renewal asks the coordinator and waits for it: not while a round is stepped (tokens are renewed
    // well before they expire, and a round ends within its deadline).
    if (!options_.security || !options_.security->renew || s.round || SteadyClock::now() < s.nextRenewal)
        return;
    s.nextRenewal = SteadyClock::now() + 5s; // a look at the token's times is cheap
    const qint64 now = QDateTime::currentSecsSinceEpoch();
    if (!security::AccessToken::fromBytes(s.token).needsRefresh(now))
        return;
    try {
        QByteArray renewed = options_.security->renew(s.token);
        const security::AccessToken token = security::AccessToken::fromBytes(renewed);
        s.dht.setCredential(renewed);
        Session::admit(*s.zap, token);
        s.token = std::move(renewed);
        s.nextAnnounce = {}; // the others should see the new token soon
        note("renewed the access token: valid until " +
             QDateTime::fromSecsSinceEpoch(token.expiresAt(), Qt::UTC).toString(Qt::ISODate).toStdString());
    } catch (const std::exception& e) {
        s.nextRenewal = SteadyClock::now() + options_.renewRetry;
        s.lastProblem = std::string("could not renew the access token: ") + e.what();
        note(s.lastProblem);
    }
}

void CollaborationLink::note(const std::string& line) const {
    if (options_.log)
        options_.log(line);
}

void CollaborationLink::trace(const std::string& line) const {
    if (options_.trace)
        options_.trace(line);
}

void CollaborationLink::threadMain() {
    Session& s = *session_;
    // Until the DHT is connected nothing else can work; the coordinator (no bootstrap) is the network.
    const auto connectBy = SteadyClock::now() + options_.dhtConnectTimeout;
    while (!options_.bootstrap.isEmpty() && s.dht.connectedNodeCount() == 0 && !stopping_ &&
           SteadyClock::now() < connectBy) {
        runTasks(s);
        serveRouter(s, 100ms);
    }
    if (!options_.bootstrap.isEmpty() && s.dht.connectedNodeCount() == 0)
        s.lastProblem = "the DHT did not connect to " + options_.bootstrap.join(", ").toStdString();
    while (!stopping_) {
        runTasks(s);
        waitForWork(s, 20ms);
        s.probe.poll();
        try {
            if (s.round)
                stepRound(s);
            else if (s.matchmaking->active())
                stepMatchmaking(s);
            else
                serveRouter(s, 0ms);
            stepDownload(s);
            renewToken(s);
            followRevocations(s);
            refreshProgress(s);
            announce(s);
            maybeDownloadState(s);
            placeGroupOfOne(s);
            maybeFormGroup(s);
            maybeReleaseGroup(s);
            lookAround(s);
            drainDealers(s);
        } catch (const std::exception& e) {
            // A failed lookup or a refused record must not end the peer: note it and carry on.
            s.lastProblem = e.what();
            note(e.what());
        }
        publishStatus(s);
    }
    if (s.round) { // the training thread waits for its outcome: end the round as its deadline would
        s.round->round->finishNow("this peer is stopping");
        stepRound(s);
    }
    runTasks(s); // release a training thread that may be waiting on a call
}

void CollaborationLink::runTasks(Session& s) {
    for (;;) {
        std::function<void(Session&)> task;
        {
            const std::lock_guard lock(mutex_);
            if (tasks_.empty())
                return;
            task = std::move(tasks_.front());
            tasks_.pop_front();
        }
        task(s);
    }
}

void CollaborationLink::waitForWork(Session& s, std::chrono::milliseconds wait) {
    std::vector<zmq::pollitem_t> items;
    if (s.round) {
        items = s.round->round->pollItems(); // the ROUTER among them
        // Pacing and the round's timers may be due sooner than the loop's tick.
        const auto untilWake =
            std::chrono::ceil<std::chrono::milliseconds>(s.round->round->wakeAt() - SteadyClock::now());
        wait = std::clamp(untilWake, 0ms, wait);
    } else if (s.matchmaking->active())
        items = s.matchmaking->pollItems(); // the ROUTER among them
    else if (options_.role != wire::ROLE_CLIENT)
        items.push_back({s.router.handle(), 0, ZMQ_POLLIN, 0});
    if (s.download)
        for (const zmq::pollitem_t& item : s.download->pollItems())
            items.push_back(item);
    if (items.empty())
        std::this_thread::sleep_for(wait);
    else
        zmq::poll(items.data(), items.size(), wait);
}

void CollaborationLink::serveRouter(Session& s, std::chrono::milliseconds wait) {
    if (options_.role == wire::ROLE_CLIENT) {
        std::this_thread::sleep_for(wait);
        return;
    }
    for (int budget = 64; budget > 0; --budget) {
        zmq::message_t route;
        std::optional<std::vector<zmq::message_t>> frames;
        try {
            frames = net::MessageCodec::receive(s.router, budget == 64 ? wait : 0ms, &route);
        } catch (const net::ProtocolViolation& e) {
            s.lastProblem = e.what();
            continue;
        }
        if (!frames)
            return;
        try {
            net::WireMessage message = s.codec.decode(std::move(*frames));
            message.route = std::move(route);
            handleRouterMessage(s, std::move(message));
        } catch (const net::ProtocolViolation& e) {
            s.lastProblem = e.what();
        }
    }
}

const std::pair<std::string, std::uint32_t>* CollaborationLink::leftGroupOf(const Session& s,
                                                                            const wire::Envelope& envelope) {
    if (!collab::AllReduceRound::roundEpochOf(envelope))
        return nullptr;
    for (const auto& left : s.leftGroups)
        if (collab::AllReduceRound::isRoundMessage(envelope, left.first))
            return &left;
    return nullptr;
}

void CollaborationLink::handleRouterMessage(Session& s, net::WireMessage message) {
    const wire::Envelope& envelope = message.envelope;
    if (envelope.has_state_request() || envelope.has_state_digest_request()) {
        s.bytesSent += s.server.answer(s.router, message);
    } else if (envelope.has_join_request()) {
        // Not gathering a group now: say so at once, so that the requester tries the next leader.
        wire::Envelope reply;
        reply.set_request_id(envelope.request_id());
        reply.mutable_join_reply()->set_code(wire::JoinReply::NOT_A_LEADER);
        std::vector<zmq::message_t> frames = s.codec.encode(std::move(reply));
        net::MessageCodec::trySend(s.router, frames, &message.route, true);
    } else if (const auto left = leftGroupOf(s, envelope)) {
        // A member of a group this peer left: its span will not come (PartFailure, as an aggregator that
        // gives its span up says it).
        wire::Envelope reply;
        wire::PartFailure* failure = reply.mutable_part_failure();
        failure->set_group_id(left->first);
        failure->set_epoch(*collab::AllReduceRound::roundEpochOf(envelope));
        failure->set_span(left->second);
        failure->set_reason("left the group before its round: it held too few of the peers at its epoch");
        failure->set_left_group(true);
        std::vector<zmq::message_t> frames = s.codec.encode(std::move(reply));
        net::MessageCodec::trySend(s.router, frames, &message.route, true);
    } else if (collab::AllReduceRound::roundEpochOf(envelope)) {
        s.stash.add(std::move(message), s.tracker.localEpoch()); // a member that began the round first
    }
}

void CollaborationLink::publishRecord(Session& s, SystemClock::time_point now) {
    std::uint64_t samples = 0;
    double rate = 0.0;
    {
        const std::lock_guard lock(mutex_);
        samples = reportedSamples_;
        rate = reportedRate_;
    }
    s.tracker.reportLocal(samples, rate, now);
    collab::PeerProgress record = s.tracker.localRecord(now);
    if (s.averaging.second == record.epoch)
        record.averagingGroup = s.averaging.first;
    record.epoch += options_.publishedEpochLead;
    if (options_.claimedSamples > 0)
        record.samplesAccumulated = options_.claimedSamples;
    s.progressBoard.publish(record, options_.recordTtl);
    s.recordPublished = SteadyClock::now();
}

// Publishes this peer's record and reads the others' when due. The reading runs on the DHT's thread
// (ProgressBoard::lookUp) and is taken at a later turn of the loop, when it finished or had 1.5 s: the loop
// never waits for it.
void CollaborationLink::refreshProgress(Session& s) {
    const auto now = s.dht.now();
    if (std::optional<std::vector<collab::PeerProgress>> records = s.progressBoard.takeLookedUp())
        takeProgress(s, *records);
    // During a round only the record is kept alive (no new reading: what it learnt would wait for the
    // round's end anyway): a round may outlast the record's lifetime, and a peer missing from the others'
    // progress is not expected in their next group.
    if (s.round) {
        if (SteadyClock::now() - s.recordPublished >= options_.recordTtl / 2)
            publishRecord(s, now);
        return;
    }
    if (s.progressBoard.lookingUp() || !s.refresh.isDue(s.tracker.localEpoch(), now))
        return;
    publishRecord(s, now);
    s.progressBoard.lookUp();
}

void CollaborationLink::takeProgress(Session& s, const std::vector<collab::PeerProgress>& records) {
    s.tracker.update(records, s.dht.now());
    ++s.progressReadings;
    s.lastReadingAt = SteadyClock::now();
    const auto after = s.dht.now();
    const collab::GlobalProgress global = s.tracker.globalProgress(after);
    s.refresh.refreshed(global, s.tracker.localEpoch(), after);
    if (global.epoch == s.tracker.localEpoch()) {
        s.ownEpochReading = global;
        s.ownEpochReadingAt = s.lastReadingAt;
    }
    maybeGiveUpMatchmaking(s, global.epoch);
    // A claim that nobody backs is not followed (ProgressAggregator); it is said once, with the peer's id.
    if (s.unfollowedNoted.size() > kMaxUnfollowedNoted)
        s.unfollowedNoted.clear();
    for (const auto& [peerId, epoch] : global.unfollowed)
        if (std::exchange(s.unfollowedNoted[peerId], epoch) != epoch)
            note("peer " + QByteArray::fromStdString(peerId).toHex().toStdString() + " claims epoch " +
                 std::to_string(epoch) + ", which no quorum of peers nor the coordinator has reached (at " +
                 std::to_string(global.epoch) + "): not followed");
    const std::uint64_t local = s.tracker.localEpoch();
    // Peers finishing the same step: their new records are on the way. (Only just after the change: a
    // peer that stays behind must not make this one poll the DHT at the shortest period for good.)
    if (local > 0 && SteadyClock::now() - s.epochChangedAt < options_.progressRefresh.maxPeriod &&
        !s.tracker.peersAt(local - 1, after).empty())
        s.refresh.refreshSoon(after);
}

// What this peer's reading of the progress records says of the batch, and how old the reading is: why it
// looks for a group now (a peer that looks late, and misses the others' group, shows why in the trace).
std::string CollaborationLink::batchReading(const Session& s, SystemClock::time_point now) {
    const collab::GlobalProgress global = s.tracker.globalProgress(now);
    std::string line = "epoch " + std::to_string(global.epoch) + "'s batch at " +
                       std::to_string(static_cast<std::uint64_t>(global.samplesAccumulated)) + " of " +
                       std::to_string(global.targetBatchSize) + " samples";
    if (global.claimedEta)
        line += ", claimed full in " +
                std::to_string(
                    std::chrono::duration_cast<std::chrono::milliseconds>(*global.claimedEta - now).count()) +
                " ms";
    if (s.progressReadings > 0)
        line += ", by a reading of " + msSince(s.lastReadingAt) + " ms ago";
    // Late: the others are past this epoch already. What did this peer last see of its own?
    const std::uint64_t local = s.tracker.localEpoch();
    if (const auto& before = s.ownEpochReading; global.epoch > local && before && before->epoch == local) {
        line += "; its last reading of epoch " + std::to_string(local) + ", " + msSince(s.ownEpochReadingAt) +
                " ms ago, showed " + std::to_string(before->peersAtEpoch) + " peer(s) there, " +
                std::to_string(static_cast<std::uint64_t>(before->samplesAccumulated)) + " of " +
                std::to_string(before->targetBatchSize) + " samples at " +
                std::to_string(static_cast<std::uint64_t>(before->samplesPerSecond)) + " samples/s";
    }
    return line;
}

void CollaborationLink::announce(Session& s) {
    const auto now = SteadyClock::now();
    if (now < s.nextAnnounce)
        return;
    s.nextAnnounce = now + std::min<SteadyClock::duration>(kAnnouncePeriod, options_.recordTtl / 2);
    collab::PeerAnnouncement self;
    self.role = options_.role;
    self.endpoint = s.endpoint;
    self.bandwidth = s.declaredBandwidth();
    self.stateDonor = options_.stateDonor && s.synced;
    self.epoch = s.tracker.localEpoch();
    self.version = options_.version;
    self.authEndpoint = options_.authEndpoint;
    self.country = options_.country;
    s.peerBoard.publish(self, options_.recordTtl);
}

void CollaborationLink::maybeDownloadState(Session& s) {
    if ((s.phase != GroupPhase::Idle && s.phase != GroupPhase::Chasing) || s.matchmaking->active())
        return;
    const auto now = s.dht.now();
    const collab::GlobalProgress global = s.tracker.globalProgress(now);
    const std::uint64_t local = s.tracker.localEpoch();
    // A newcomer loads the newest state before it trains; a peer that fell more than one epoch behind
    // (it missed rounds) catches up the same way. One epoch behind is normal between rounds: such a peer
    // still averages its gradient for that epoch, alone if need be.
    // A peer that trains nothing (the coordinator, an auxiliary) has no gradient to offer for an old
    // epoch: it catches up at once.
    const bool behind = global.epoch > local && (!s.synced || global.epoch > local + 1 || !options_.trains ||
                                                 s.phase == GroupPhase::Chasing);
    if (!behind) {
        if (!s.synced && s.refresh.nextRefreshAt() &&
            (s.tracker.remotePeers() > 0 || SteadyClock::now() - s.started > kAloneAfter))
            s.synced = true;
        return;
    }
    // After a failure it waits before trying again; after a success it may try again at once: a peer
    // that loaded a state just as the others stepped is behind again, and the others' next group forms
    // within the epoch: a delay meant for failing donors would only make it later.
    if (SteadyClock::now() < s.nextDownloadAttempt)
        return;
    // The donors are the latest sightings' (lookAround): if they are older than an announcement period's
    // fraction, a new reading is asked for, and the download tried once it came.
    if (!s.sightings || SteadyClock::now() - s.sightingsAt > kFreshSightings) {
        s.nextSighting = {};
        return;
    }
    s.nextDownloadAttempt = SteadyClock::now() + kDownloadRetry;
    std::vector<collab::StateDonor> donors;
    for (const collab::PeerAnnouncement& peer : collab::PeerBoard::donors(*s.sightings, local + 1))
        if (peer.peerId != peerId_)
            donors.push_back({peer.peerId, peer.endpoint, peer.curveKey, peer.coordinator});
    const std::string behindAt =
        "behind at epoch " + std::to_string(local) + " of " + std::to_string(global.epoch);
    if (donors.empty()) {
        const std::string problem = "behind the collaboration, and no donor announced a newer state yet";
        if (s.lastProblem != problem)
            note(behindAt + ": no donor");
        s.lastProblem = problem;
        // After a chase, it then steps alone after all, rather than not at all.
        s.chaseFailed = s.phase == GroupPhase::Chasing;
        if (s.chaseFailed)
            enter(s, GroupPhase::Idle, "no donor has the others' state: stepping alone");
        return;
    }
    // A snapshot holds the state vector's values as fp32 (parameters and LAMB's two moments) and a header;
    // a donor that sends more (4 GiB, then a wrong hash) is refused as soon as it passes that size.
    const std::uint64_t stateBytes = 4 * static_cast<std::uint64_t>(options_.stateVectorSize) + (16u << 20);
    s.download = std::make_unique<collab::StateDownloader>(s.codec, s.sockets, local + 1,
                                                           std::min(options_.maxStateBytes, stateBytes),
                                                           options_.stateChunkTimeout);
    s.download->onTransition([this](const std::string& line) { trace(line); });
    s.downloadFrom = local;
    s.downloadChases = s.phase == GroupPhase::Chasing;
    enter(s, GroupPhase::Downloading, behindAt);
    s.download->start(s.donorHistory.order(std::move(donors), SteadyClock::now()));
    stepDownload(s);
}

// Moves the state download on by what arrived, without waiting; once it has finished, hands the state over
// (or notes why not), as maybeDownloadState began it.
void CollaborationLink::stepDownload(Session& s) {
    if (!s.download)
        return;
    s.download->step();
    if (!s.download->finished())
        return;
    const std::unique_ptr<collab::StateDownloader> downloader = std::move(s.download);
    s.donorHistory.failed(downloader->lastFailures(), SteadyClock::now());
    std::optional<collab::StateDownload> download = downloader->take();
    const std::string behindAt = "behind at epoch " + std::to_string(s.downloadFrom) + " of " +
                                 std::to_string(s.tracker.globalProgress(s.dht.now()).epoch);
    if (!download) {
        s.chaseFailed = s.downloadChases;
        const std::string failures = collab::describe(downloader->lastFailures());
        s.lastProblem = "state download failed: " + (failures.empty() ? std::string("no donor") : failures);
        note(behindAt + ", " + s.lastProblem);
        enter(s, GroupPhase::Idle, s.lastProblem);
        return;
    }
    for (const std::string& snapshot : download->snapshots)
        s.bytesReceived += snapshot.size();
    DownloadedState accepted = DownloadedState::from(*download, options_.schemaHash, options_.stateFit.get());
    if (!accepted.state) {
        s.donorHistory.failed(accepted.failures, SteadyClock::now());
        s.chaseFailed = s.downloadChases;
        s.lastProblem = "refused the downloaded state: " + collab::describe(accepted.failures);
        note(behindAt + ", " + s.lastProblem);
        enter(s, GroupPhase::Idle, s.lastProblem);
        return;
    }
    collab::TrainingState state = std::move(*accepted.state);
    const std::string& donors = accepted.donors;
    s.nextDownloadAttempt = {};
    note("loaded " + std::string(download->snapshots.size() > 1 ? "the median of the states" : "the state") +
         " of epoch " + std::to_string(download->epoch) + " from " + donors +
         (download->failures.empty() ? std::string() : " after " + collab::describe(download->failures)));
    s.synced = true;
    enter(s, GroupPhase::StateLoaded, "epoch " + std::to_string(download->epoch));
    const std::lock_guard lock(mutex_);
    downloaded_ = std::move(state);
}

void CollaborationLink::maybeFormGroup(Session& s) {
    if (s.phase != GroupPhase::Idle || !s.synced)
        return;
    const auto now = s.dht.now();
    const std::uint64_t local = s.tracker.localEpoch();
    if (options_.lastEpoch > 0 && local >= options_.lastEpoch)
        return; // leaving: this peer trains no further
    if (s.tracker.globalProgress(now).epoch > local + 1)
        return; // about to download the state instead
    // A peer that trains nothing looks a refresh period earlier (LinkOptions::lookAhead).
    const auto lead = options_.lookAhead();
    if (!s.tracker.shouldStartMatchmaking(now, lead))
        return;
    collab::GroupMember self;
    self.peerId = peerId_;
    self.role = options_.role;
    self.endpoint = s.endpoint;
    self.bandwidth = s.declaredBandwidth();
    self.token = s.token.toStdString();
    {
        const std::lock_guard lock(mutex_);
        self.weight = self.role == wire::ROLE_AUXILIARY ? 0.0
                      : options_.claimedSamples > 0     ? static_cast<double>(options_.claimedSamples)
                                                        : static_cast<double>(reportedSamples_);
    }
    const auto began = SteadyClock::now();
    // Who to wait for: the peers at this epoch, and those still at the previous one, which are most
    // likely finishing the same step as this peer and will publish the new epoch within a refresh.
    std::vector<std::string> expected = s.tracker.peersAt(local, now);
    if (local > 0)
        for (std::string& peer : s.tracker.peersAt(local - 1, now))
            expected.push_back(std::move(peer));
    // Not a peer this one banned: it will not be let in, and a leader gathers on while too many of the
    // expected are out (Matchmaking).
    const qint64 nowMs = QDateTime::currentMSecsSinceEpoch();
    std::erase_if(expected, [&](const std::string& peer) { return isBanned(s, peer, nowMs); });
    s.matchmaking->start(local, self, std::move(expected));
    enter(s, GroupPhase::Matchmaking, batchReading(s, now));
    s.matchmakingEpoch = local;
    s.matchmakingBegan = began;
    stepMatchmaking(s);
}

// A matchmaking at an epoch the collaboration has left (its quorum is past it) finds no leader there: a
// peer that only joins (a client) would wait out the whole deadline, an epoch or more behind, before it
// chased the others' state (seen: two NATed volunteers, late from a round that waited for a renumbered
// member, looked for a leader 35 s while the others stepped four epochs). Unless it already asked a
// leader or leads, it ends the matchmaking alone and loads the newer state (chasing) at once. Called
// after each progress refresh (the quorum's epoch moves only then), with the epoch it found.
void CollaborationLink::maybeGiveUpMatchmaking(Session& s, std::uint64_t global) {
    if (!s.matchmaking->active())
        return;
    // After a chase that found no donor it steps alone after all, as the deadline would have it.
    if (s.chaseFailed || global <= s.matchmakingEpoch ||
        !s.matchmaking->giveUp("the collaboration is at epoch " + std::to_string(global) +
                               ": no group will form at this one"))
        return;
    note("epoch " + std::to_string(s.matchmakingEpoch) + ": the others moved on to epoch " +
         std::to_string(global) + ": loading their state rather than looking for a group");
    enter(s, GroupPhase::Chasing, "the collaboration is at epoch " + std::to_string(global));
}

// Moves group formation on by what arrived (it owns the ROUTER meanwhile: join requests are its, anything
// else is served here at once); once it is done, takes the group as maybeFormGroup's caller would.
void CollaborationLink::stepMatchmaking(Session& s) {
    if (!s.matchmaking->active())
        return;
    s.matchmaking->step();
    for (net::WireMessage& message : s.matchmaking->takeOtherMessages())
        handleRouterMessage(s, std::move(message));
    if (s.matchmaking->phase() != collab::Matchmaking::Phase::Done)
        return;
    collab::MatchmakingResult result = s.matchmaking->takeResult();
    const std::uint64_t local = s.matchmakingEpoch;
    note("epoch " + std::to_string(local) + ": " + (result.leader ? "led" : "joined") + " a group of " +
         std::to_string(result.group.members.size()) + " in " + msSince(s.matchmakingBegan) + " ms");
    for (const std::string& problem : result.problems)
        note("epoch " + std::to_string(local) + ": " + problem);
    // Parts of this group's round stay with the group; anything else is served as usual.
    std::vector<net::WireMessage> parts;
    for (net::WireMessage& message : result.early) {
        if (collab::AllReduceRound::isRoundMessage(message.envelope, result.group.groupId))
            parts.push_back(std::move(message));
        else
            handleRouterMessage(s, std::move(message));
    }
    result.early = std::move(parts);
    if (s.phase == GroupPhase::Chasing)
        return; // given up (maybeGiveUpMatchmaking): the newer state is loaded instead
    // Alone, and early: try again (the others may be about to look) rather than wait alone.
    if (result.group.members.size() < 2 && !s.tracker.readyToEndEpoch(s.dht.now()))
        return enter(s, GroupPhase::Idle, "alone before the batch is full: looking again");
    // Alone at an epoch the others have already left: stepping alone would keep this peer one epoch behind
    // for good (each epoch it misses their group by the same margin). Load their newer state instead;
    // only if no donor has it does it step alone.
    if (result.group.members.size() < 2 && !s.chaseFailed) {
        // The records read before matchmaking are as old as the gather time: read them again, and place the
        // group once they came (placeGroupOfOne), at a later turn of the loop.
        s.aloneResult = std::move(result);
        s.aloneAfterReading = s.progressReadings;
        enter(s, GroupPhase::AloneReading, "alone: reading the records again");
        s.progressBoard.lookUp();
        return;
    }
    placeGroup(s, std::move(result), local);
}

// A matchmaking that ended alone at `local`, once the progress records read after it came: it chases the
// others' newer state if the collaboration has moved past this epoch, else places its group of one.
void CollaborationLink::placeGroupOfOne(Session& s) {
    if (s.phase != GroupPhase::AloneReading || s.progressReadings == s.aloneAfterReading)
        return;
    collab::MatchmakingResult result = std::move(*s.aloneResult);
    s.aloneResult.reset();
    const std::uint64_t local = s.matchmakingEpoch;
    if (const std::uint64_t global = s.tracker.globalProgress(s.dht.now()).epoch; global > local)
        return enter(s, GroupPhase::Chasing,
                     "alone, and the collaboration is at epoch " + std::to_string(global));
    placeGroup(s, std::move(result), local);
}

// Hands the group over (pending, released when the batch is full), unless this peer is alone while others
// are at its epoch or one behind it, which makes it look again for a while.
void CollaborationLink::placeGroup(Session& s, collab::MatchmakingResult result, std::uint64_t local) {
    // Alone, its batch full, while other peers are at this epoch or finishing the step to it: stepping alone
    // would part it from them (collab::LoneStepRule; seen: an honest trainer drawn into a pair with a liar
    // that is always ready, then stepping alone at the next epochs, ended with parameters of its own).
    if (result.group.members.size() < 2) {
        const auto now = s.dht.now();
        const std::size_t at = s.tracker.peersAt(local, now).size();
        const std::size_t behind = local > 0 ? s.tracker.peersAt(local - 1, now).size() : 0;
        const collab::LoneStepRule::Decision decision =
            s.loneStep.decide(local, at, behind, SteadyClock::now());
        if (!decision.stepAlone) {
            const std::string why = "alone while " + std::to_string(at) +
                                    " other peer(s) are at this epoch and " + std::to_string(behind) +
                                    " at the one before";
            if (decision.firstWait)
                note("epoch " + std::to_string(local) + ": " + why +
                     ": looking again rather than stepping apart");
            return enter(s, GroupPhase::Idle, why);
        }
    } else {
        s.loneStep.reset();
        s.chaseFailed = false;
    }
    s.quorumLookedAt.reset();
    const std::size_t members = result.group.members.size();
    s.pending = FormedGroup{std::move(result.group), std::move(result.early), result.leader,
                            std::move(result.leaderId)};
    s.pendingSince = SteadyClock::now();
    enter(s, GroupPhase::Pending, "a group of " + std::to_string(members));
}

void CollaborationLink::maybeReleaseGroup(Session& s) {
    if (s.phase != GroupPhase::Pending)
        return;
    // The group formed ahead of time; the round starts when the batch is full (or due), so that the
    // averaged batch is the target size. A group whose batch never fills (everyone paused) goes ahead
    // after the matchmaking deadline rather than holding its members forever.
    std::string why;
    if (s.tracker.readyToEndEpoch(s.dht.now()))
        why = "the batch is full by this peer's reading";
    else if (std::optional<std::string> begun = othersBeganFirst(s))
        why = std::move(*begun);
    else if (SteadyClock::now() - s.pendingSince >= options_.matchmaking.deadline)
        why = "the batch did not fill within the matchmaking deadline";
    else
        return;
    // A peer that trains nothing (the coordinator, an auxiliary) looks for groups early, so a peer that
    // is always ready (a liar claiming the whole batch) gathers it into a group of their own, which would
    // step apart from the rest with the liar's gradient alone, and the epoch that group reaches would end
    // everyone else's early. Such a peer leaves a group that holds fewer of the peers at its epoch than
    // would move the collaboration's epoch (ProgressAggregator::epochQuorum), and looks again, now that
    // the others are looking too; the members that come to it are told that its span failed
    // (leftGroups), so that none waits for it. Trainers look near their batch's end, together: leaving
    // would only cost the group's other members their span from this peer.
    const std::uint64_t local = s.tracker.localEpoch();
    const std::vector<std::string> atEpoch = s.tracker.peersAt(local, s.dht.now());
    std::size_t inGroup = 0;
    for (const std::string& peer : atEpoch)
        inGroup += s.pending->group.indexOf(peer) >= 0 ? 1 : 0;
    // With fewer than three others a quorum is all of them: one slow or unreachable peer would then hold
    // back every group (seen in a collaboration of three), so the rule starts at three.
    if (!options_.trains && atEpoch.size() >= kLeaveGroupsFrom &&
        inGroup < collab::ProgressAggregator::epochQuorum(atEpoch.size())) {
        note("epoch " + std::to_string(local) + ": left a group of " +
             std::to_string(s.pending->group.members.size()) + " that holds " + std::to_string(inGroup) +
             " of the " + std::to_string(atEpoch.size()) +
             " other peers at this epoch: it would step apart from the rest");
        s.leftGroups.emplace_back(s.pending->group.groupId,
                                  static_cast<std::uint32_t>(s.pending->group.indexOf(peerId_)));
        if (s.leftGroups.size() > kMaxLeftGroups)
            s.leftGroups.pop_front();
        s.pending.reset();
        return enter(s, GroupPhase::Idle, "left the group");
    }
    // The time the training thread then takes to begin it (the end of its micro-batch) is the gap to the
    // round's first line (docs/soak.md).
    note("epoch " + std::to_string(local) + ": beginning the group's round: " + why);
    enter(s, GroupPhase::HandedOver, why);
    const std::lock_guard lock(mutex_);
    formed_ = std::move(s.pending);
    s.pending.reset();
}

// Most of the pending group's other members began its round (RoundStartQuorum): by the parts and notices
// they sent this peer (an aggregator's), or by their progress records (anyone's). What to log, if so.
std::optional<std::string> CollaborationLink::othersBeganFirst(Session& s) {
    // Members say they began only by messages and records, so nothing changes between their arrivals; run
    // at every turn of the loop (20 ms), this rebuilt the same set from the stash and the records each time.
    const std::pair<std::uint64_t, std::uint64_t> seen{s.stash.added(), s.progressReadings};
    if (s.quorumLookedAt == seen)
        return std::nullopt;
    s.quorumLookedAt = seen;
    const collab::GroupSpec& group = s.pending->group;
    std::set<std::string> begun = s.stash.sendersOf(group.groupId, group.epoch);
    for (const net::WireMessage& message : s.pending->early)
        begun.insert(message.envelope.sender());
    for (std::string& peer : s.tracker.peersAveraging(group.groupId, group.epoch, s.dht.now()))
        begun.insert(std::move(peer));
    if (!collab::RoundStartQuorum::reached(group, peerId_, begun))
        return std::nullopt;
    return std::to_string(collab::RoundStartQuorum::begunOthers(group, peerId_, begun)) + " of the " +
           std::to_string(group.members.size() - 1) +
           " other members began it before this peer read the batch as full";
}

void CollaborationLink::setCaps(double uploadBytesPerSecond, double downloadBytesPerSecond) {
    if (!(uploadBytesPerSecond >= 0.0) || !(downloadBytesPerSecond >= 0.0))
        throw std::invalid_argument("a bandwidth cap must be 0 (none) or positive");
    call([&](Session& s) {
        // options_ is read on this thread only (Session keeps a reference to it): rounds and claims from now
        // on use the new caps.
        options_.uploadBytesPerSecond = uploadBytesPerSecond;
        options_.downloadBytesPerSecond = downloadBytesPerSecond;
        s.bandwidth.setCaps(uploadBytesPerSecond, downloadBytesPerSecond);
        s.nextAnnounce = {}; // the bandwidth this peer declares may have changed
    });
}

// The peers' records, for the app's peer map and the latency probe: looked up on the DHT's thread and
// taken when they come (PeerBoard::lookUp), so that no lookup holds up this thread, in a round or not.
void CollaborationLink::lookAround(Session& s) {
    if (std::optional<std::vector<collab::PeerAnnouncement>> found = s.peerBoard.takeLookedUp()) {
        s.sightings = std::make_shared<const std::vector<collab::PeerAnnouncement>>(std::move(*found));
        s.sightingsAt = SteadyClock::now();
        s.probeDue = true;
    }
    if (s.probeDue && !s.round) { // its pings would only queue behind a round's parts
        s.probe.start(*s.sightings, peerId_, kPingBudget);
        s.probeDue = false;
    }
    if (SteadyClock::now() < s.nextSighting)
        return;
    s.nextSighting = SteadyClock::now() + kSightingPeriod;
    s.peerBoard.lookUp();
}

void CollaborationLink::drainDealers(Session& s) {
    if (SteadyClock::now() < s.nextDealerDrain)
        return;
    s.nextDealerDrain = SteadyClock::now() + kDealerDrainPeriod;
    s.dealers.drainKept();
}

void CollaborationLink::publishStatus(Session& s) {
    LinkStatus status;
    status.global = s.tracker.globalProgress(s.dht.now());
    status.localEpoch = s.tracker.localEpoch();
    status.remotePeers = static_cast<int>(s.tracker.remotePeers());
    status.bandwidthBytesPerSecond = s.bandwidth.bytesPerSecond();
    status.uploadBytesPerSecond = s.bandwidth.upload().bytesPerSecond();
    status.downloadBytesPerSecond = s.bandwidth.download().bytesPerSecond();
    status.lastProblem = s.lastProblem;
    status.peers = s.sightings;
    status.latencyMs = s.probe.latencies();
    status.silentPeers = s.probe.silent();
    status.bytesSent = s.bytesSent;
    status.bytesReceived = s.bytesReceived;
    status.bytesPerValue = collab::TensorEncoding::bytesPerValue(options_.encoding);
    const std::lock_guard lock(mutex_);
    status_ = std::move(status);
}

} // namespace sahaj::engine
