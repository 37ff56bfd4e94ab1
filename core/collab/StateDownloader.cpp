#include "core/collab/StateDownloader.h"

#include "core/collab/StateAssembler.h"
#include "core/net/LogText.h"
#include "core/net/MessageCodec.h"
#include "core/net/ProtocolViolation.h"
#include "core/net/SocketFactory.h"

#include <QByteArray>

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <utility>

namespace sahaj::collab {

StateDownloader::StateDownloader(const net::MessageCodec& codec, const net::SocketFactory& sockets,
                                 std::uint64_t minEpoch, std::uint64_t maxBytes,
                                 std::chrono::milliseconds chunkTimeout, double minBytesPerSecond)
    : codec_(codec), sockets_(sockets), minEpoch_(minEpoch), maxBytes_(maxBytes), chunkTimeout_(chunkTimeout),
      minBytesPerSecond_(minBytesPerSecond) {}

const char* StateDownloader::nameOf(Phase phase) {
    switch (phase) {
    case Phase::Idle:
        return "idle";
    case Phase::AskingDigests:
        return "asking digests";
    case Phase::Fetching:
        return "fetching";
    case Phase::Done:
        return "done";
    case Phase::Failed:
        return "failed";
    }
    return "?";
}

std::string describe(const std::vector<DonorFailure>& failures) {
    std::string line;
    for (const DonorFailure& failure : failures)
        line += (line.empty() ? "donor " : "; donor ") + net::LogText::shortHex(failure.peerId) + ": " +
                failure.reason;
    return line;
}

namespace {

std::string describe(const StateDigest& digest) {
    return "epoch " + std::to_string(digest.epoch) + ", sha256 " + net::LogText::shortHex(digest.sha256);
}

} // namespace

void StateDownloader::enter(Phase next, const std::string& why) {
    const Phase was = std::exchange(phase_, next);
    if (log_)
        log_(std::string("state download: ") + nameOf(was) + " -> " + nameOf(next) + ": " + why);
}

void StateDownloader::start(std::vector<StateDonor> donors) {
    if (phase_ != Phase::Idle)
        throw std::logic_error("a state downloader downloads once");
    donors_ = std::move(donors);
    for (const std::size_t i : drawAsked()) {
        Asking& entry = asking_.emplace_back(Asking{i, {}, {}, nextRequestId_++, false, {}});
        try {
            entry.socket = sockets_.connectDealer(donors_[i].endpoint, donors_[i].curveKey);
            wire::Envelope request;
            request.set_request_id(entry.requestId);
            request.mutable_state_digest_request()->set_min_epoch(minEpoch_);
            entry.request = codec_.encode(std::move(request));
            ++open_;
        } catch (const zmq::error_t& e) {
            entry.failure = std::string("cannot connect: ") + e.what();
            entry.done = true;
        }
    }
    digestsBy_ = Clock::now() + chunkTimeout_;
    enter(Phase::AskingDigests, "asking " + std::to_string(asking_.size()) + " donor(s) what they serve");
    step(); // a donor that cannot be connected to at all, or no donor: decided at once
}

std::vector<std::size_t> StateDownloader::drawAsked() {
    std::vector<std::size_t> order(donors_.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::shuffle(order.begin(), order.end(), random_);
    const auto tier = [&](std::size_t i) {
        return donors_[i].coordinator ? 0 : donors_[i].failedLately ? 2 : 1;
    };
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return tier(a) < tier(b); });
    order.resize(std::min(order.size(), kMaxAsked));
    std::sort(order.begin(), order.end()); // asked in the given order, best first
    return order;
}

void StateDownloader::step() {
    if (phase_ == Phase::AskingDigests)
        stepAsking();
    if (phase_ == Phase::Fetching)
        stepFetching();
}

std::vector<zmq::pollitem_t> StateDownloader::pollItems() {
    std::vector<zmq::pollitem_t> items;
    const auto item = [](zmq::socket_t& socket, bool sending) {
        return zmq::pollitem_t{socket.handle(), 0, static_cast<short>(sending ? ZMQ_POLLOUT : ZMQ_POLLIN), 0};
    };
    if (phase_ == Phase::AskingDigests) {
        for (Asking& entry : asking_)
            if (!entry.done)
                items.push_back(item(entry.socket, !entry.request.empty()));
    } else if (phase_ == Phase::Fetching && socket_) {
        items.push_back(item(socket_, !request_.empty()));
    }
    return items;
}

std::optional<StateDownload> StateDownloader::take() {
    if (phase_ != Phase::Done)
        return std::nullopt;
    std::optional<StateDownload> result = std::move(result_);
    result_.reset();
    return result;
}

std::optional<StateDownload> StateDownloader::download(const std::vector<StateDonor>& donors) {
    start(donors);
    while (!finished()) {
        std::vector<zmq::pollitem_t> items = pollItems();
        // Timeouts are applied by step(): never wait longer than a short tick.
        if (!items.empty())
            zmq::poll(items.data(), items.size(), std::chrono::milliseconds(50));
        step();
    }
    return take();
}

void StateDownloader::stepAsking() {
    for (Asking& entry : asking_) {
        if (entry.done)
            continue;
        if (!entry.request.empty()) {
            if (net::MessageCodec::send(entry.socket, entry.request, nullptr, /*dontWait=*/true))
                entry.request.clear();
            continue;
        }
        receiveDigests(entry);
    }
    // A digest that more than half of the donors asked offer is the majority of any set that answers:
    // nobody needs to be waited for any more (a dead donor's record would otherwise cost the timeout).
    const bool decided = StateVote::majority(answers_, asking_.size()).has_value();
    if (open_ == 0 || decided || Clock::now() >= digestsBy_)
        decideDigests();
}

void StateDownloader::receiveDigests(Asking& entry) {
    const StateDonor& donor = donors_[entry.donor];
    const auto fail = [&](const std::string& why) {
        entry.failure = why;
        entry.done = true;
        --open_;
    };
    try {
        while (!entry.done) {
            std::optional<std::vector<zmq::message_t>> reply =
                net::MessageCodec::receive(entry.socket, std::chrono::milliseconds(0));
            if (!reply)
                return;
            const net::WireMessage message = codec_.decode(std::move(*reply));
            if (message.envelope.sender() != donor.peerId)
                throw net::ProtocolViolation("a reply from another peer than the donor");
            if (message.envelope.request_id() != entry.requestId)
                continue;
            if (message.envelope.has_error()) {
                fail("refused: " + net::LogText::utf8(message.envelope.error().message()));
            } else if (!message.envelope.has_state_digest()) {
                throw net::ProtocolViolation("an unexpected reply to a state digest request");
            } else if (message.envelope.state_digest().epoch() < minEpoch_) {
                fail("offers a state older than asked for");
            } else {
                const wire::StateDigest& digest = message.envelope.state_digest();
                answers_.push_back(
                    {donor.peerId, donor.coordinator, {digest.epoch(), digest.sha256(), digest.size()}});
                entry.done = true;
                --open_;
            }
        }
    } catch (const net::ProtocolViolation& e) {
        fail(e.what());
    }
}

void StateDownloader::decideDigests() {
    const bool cutShort = open_ > 0 && StateVote::majority(answers_, asking_.size()).has_value();
    for (Asking& entry : asking_) {
        if (!entry.done && !cutShort)
            entry.failure = entry.request.empty()
                                ? "no answer within " + std::to_string(chunkTimeout_.count()) + " ms"
                                : std::string("no connection");
        if (!entry.failure.empty())
            failures_.push_back({donors_[entry.donor].peerId, entry.failure});
    }
    asking_.clear(); // closes the connections
    open_ = 0;
    std::string disagreement;
    std::string tooFew;
    vouched_ = StateVote::choose(answers_, disagreement);
    medianEpoch_ = vouched_ || answers_.empty() ? std::nullopt : StateVote::medianEpoch(answers_, tooFew);
    if (!vouched_ && !medianEpoch_) {
        const std::string why = disagreement + (tooFew.empty() ? "" : "; " + tooFew);
        for (const DonorDigest& answer : answers_)
            failures_.push_back({answer.peerId, "offers " + describe(answer.digest) + ": " + why});
        enter(Phase::Failed, answers_.empty() ? "no donor answered" : why);
        return;
    }
    fetchOrder_.resize(donors_.size());
    std::iota(fetchOrder_.begin(), fetchOrder_.end(), std::size_t{0});
    nextDonor_ = 0;
    if (vouched_) {
        needed_ = 1;
        fetchFromNextDonor(std::to_string(answers_.size()) + " answer(s) vouch for " + describe(*vouched_));
        return;
    }
    // At random, not best first: the donors' own claims would decide which three states make the median.
    needed_ = StateVote::kMedianOf;
    std::shuffle(fetchOrder_.begin(), fetchOrder_.end(), random_);
    fetchFromNextDonor(disagreement + ": the median of " + std::to_string(needed_) + " states of epoch " +
                       std::to_string(*medianEpoch_));
}

bool StateDownloader::wanted(const StateDigest& digest) const {
    return vouched_ ? digest == *vouched_ : digest.epoch == *medianEpoch_;
}

void StateDownloader::keep(const StateDigest& digest, std::string bytes, const std::string& donor) {
    if (!result_) {
        result_.emplace();
        result_->epoch = digest.epoch;
    }
    const std::uint64_t size = bytes.size();
    result_->snapshots.push_back(std::move(bytes));
    result_->donors.push_back(donor);
    kept_.push_back(digest);
    if (kept_.size() < needed_)
        return fetchFromNextDonor(std::to_string(kept_.size()) + " of " + std::to_string(needed_) +
                                  " states for a median");
    result_->failures = failures_;
    enter(Phase::Done,
          (needed_ > 1
               ? std::to_string(needed_) + " states of epoch " + std::to_string(result_->epoch) + ", the last"
               : "the state of epoch " + std::to_string(result_->epoch)) +
              " from donor " + net::LogText::shortHex(donor) + ", " + std::to_string(size) + " bytes");
}

void StateDownloader::fetchFromNextDonor(const std::string& why) {
    socket_ = zmq::socket_t();
    assembler_.reset();
    request_.clear();
    received_ = 0;
    while (nextDonor_ < fetchOrder_.size()) {
        const std::size_t index = fetchOrder_[nextDonor_++];
        const StateDonor& donor = donors_[index];
        const auto answer = std::find_if(answers_.begin(), answers_.end(),
                                         [&](const DonorDigest& a) { return a.peerId == donor.peerId; });
        if (answer == answers_.end())
            continue; // a failure already
        if (!wanted(answer->digest)) {
            if (vouched_)
                failures_.push_back({donor.peerId, "offers " + describe(answer->digest) +
                                                       ", not the state vouched for (" + describe(*vouched_) +
                                                       ")"});
            continue;
        }
        // A state already downloaded from another donor counts again, without a second download.
        if (const auto same = std::find(kept_.begin(), kept_.end(), answer->digest); same != kept_.end()) {
            std::string copy = result_->snapshots[static_cast<std::size_t>(same - kept_.begin())];
            return keep(answer->digest, std::move(copy), donor.peerId);
        }
        try {
            socket_ = sockets_.connectDealer(donor.endpoint, donor.curveKey);
        } catch (const zmq::error_t& e) {
            failures_.push_back({donor.peerId, std::string("cannot connect: ") + e.what()});
            continue;
        }
        donor_ = index;
        expected_ = answer->digest;
        assembler_.emplace(minEpoch_, maxBytes_, expected_);
        began_ = Clock::now();
        enter(Phase::Fetching, "from donor " + net::LogText::shortHex(donor.peerId) + " (" + why + ")");
        askNextChunk();
        return;
    }
    enter(Phase::Failed, kept_.empty()
                             ? why
                             : "only " + std::to_string(kept_.size()) + " of the " + std::to_string(needed_) +
                                   " states for a median arrived; " + why);
}

void StateDownloader::donorFailed(const std::string& why) {
    failures_.push_back({donors_[donor_].peerId, why});
    fetchFromNextDonor("donor " + net::LogText::shortHex(donors_[donor_].peerId) + ": " + why);
}

void StateDownloader::askNextChunk() {
    const double seconds = std::chrono::duration<double>(Clock::now() - began_).count();
    const double grace = std::chrono::duration<double>(chunkTimeout_).count();
    if (seconds > grace && static_cast<double>(received_) < minBytesPerSecond_ * (seconds - grace))
        return donorFailed("delivered " + std::to_string(received_) + " bytes in " +
                           std::to_string(static_cast<long long>(seconds)) + " s, slower than " +
                           std::to_string(static_cast<long long>(minBytesPerSecond_)) + " bytes/s");
    wire::Envelope request;
    requestId_ = nextRequestId_++;
    request.set_request_id(requestId_);
    request.mutable_state_request()->set_min_epoch(minEpoch_);
    request.mutable_state_request()->set_chunk(assembler_->nextChunk());
    request.mutable_state_request()->set_snapshot_id(assembler_->snapshotToAsk());
    request_ = codec_.encode(std::move(request));
    deadline_ = Clock::now() + chunkTimeout_;
}

void StateDownloader::stepFetching() {
    // A DEALER with ZMQ_IMMEDIATE queues only on a completed connection: wait for it within the timeout.
    // Not less: in runs that admit by token, a donor's ZAP handler may hold the handshake for seconds
    // until it has read this peer's token (docs/security.md). Donors that fail go last next time
    // (DonorHistory) instead.
    while (phase_ == Phase::Fetching) {
        if (!request_.empty()) {
            if (net::MessageCodec::send(socket_, request_, nullptr, /*dontWait=*/true))
                request_.clear();
            else if (Clock::now() >= deadline_)
                donorFailed("no connection");
            else
                return;
            continue;
        }
        if (readChunk())
            continue;
        if (Clock::now() < deadline_)
            return;
        donorFailed("no answer within " + std::to_string(chunkTimeout_.count()) + " ms");
    }
}

bool StateDownloader::readChunk() {
    try {
        for (;;) {
            std::optional<std::vector<zmq::message_t>> reply =
                net::MessageCodec::receive(socket_, std::chrono::milliseconds(0));
            if (!reply)
                return false;
            const net::WireMessage message = codec_.decode(std::move(*reply));
            if (message.envelope.sender() != donors_[donor_].peerId)
                throw net::ProtocolViolation("a reply from another peer than the donor");
            if (message.envelope.request_id() != requestId_)
                continue; // a late answer to an earlier request
            if (message.envelope.has_error()) {
                donorFailed("refused: " + net::LogText::utf8(message.envelope.error().message()));
                return true;
            }
            if (!message.envelope.has_state_chunk())
                throw net::ProtocolViolation("an unexpected reply to a state request");
            assembler_->add(message.envelope.state_chunk(), message.data.front());
            received_ += message.data.front().size();
            if (!assembler_->complete()) {
                askNextChunk();
                return true;
            }
            socket_ = zmq::socket_t();
            keep(expected_, assembler_->take(), donors_[donor_].peerId);
            return true;
        }
    } catch (const net::ProtocolViolation& e) {
        donorFailed(e.what());
        return true;
    }
}

} // namespace sahaj::collab
