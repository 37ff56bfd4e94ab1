#pragma once

#include "core/engine/CoreLaunch.h"
#include "core/engine/CoreSupervisor.h"
#include "core/engine/DataCursor.h"
#include "core/engine/ShardFeed.h"
#include "core/model/AlbertConfig.h"
#include "core/text/PretrainingStream.h"

#include <QString>

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace sahaj::text {
class Tokenizer;
}

namespace sahaj::engine {

class ModelReplica;

struct AccumulatorOptions {
    QString corpusPath;
    QString tokenizerPath;
    text::PlainTextDocuments documents = text::PlainTextDocuments::LinePerDocument;
    int sequenceLength = 128;
    int microBatchSize = 8; // samples per forward/backward: the memory limit
    double mlmProbability = 0.15;
    std::uint64_t seed = 0; // this peer's own: every peer draws its own order of the data
    // The shards after the first (corpusPath), and where in its stream of shards the peer starts
    // (a saved cursor's place, or the first shard's start). Without a feed, the corpus is gone through
    // pass after pass.
    std::shared_ptr<ShardFeed> feed;
    DataCursor start;
};

// A volunteer's share of the work: draws micro-batches of MLM + SOP examples from its data, has its
// compute cores compute each one's gradient (samples x its mean loss) with the replica's parameters, and
// sums them here, in the engine, so that after n samples the sum holds n times the per-sample mean.
// hivemind's GradientAverager accumulates the same sample-weighted mean of micro-batch losses. With several
// cores (one per GPU) each gets a micro-batch at once and their gradients add up the same way: a machine
// with several GPUs is one peer with one averager. A core that fails costs the micro-batch in flight, never
// the sum (CoreSupervisor restarts it).
//
// Owned by the training thread.
class GradientAccumulator {
public:
    // Reads the tokenizer and opens the corpus. Throws std::runtime_error naming the file on failure.
    // cores: at least one (std::invalid_argument otherwise).
    GradientAccumulator(AccumulatorOptions options, std::vector<std::unique_ptr<CoreSupervisor>> cores,
                        std::int64_t parameterCount);
    ~GradientAccumulator();

    // One micro-batch per ready core, forward and backward with the replica's parameters, the cores at
    // once. Returns the samples it added: 0 when every core failed or waits for its restart (see
    // takeMessages()).
    std::int64_t accumulate(const ModelReplica& replica);

    std::int64_t samples() const { return samples_; }
    // Mean training loss (MLM + SOP) over the samples accumulated since the last reset.
    double meanLoss() const { return samples_ > 0 ? lossSum_ / static_cast<double>(samples_) : 0.0; }
    std::int64_t tokens() const { return tokens_; }
    // Wall seconds the last accumulate() spent on its micro-batches on the cores (from the requests to the
    // last answer, without starting a core or loading parameters); 0 when it computed nothing.
    double lastComputeSeconds() const { return lastComputeSeconds_; }
    // The accumulated gradient as the mean per sample, followed by meanLoss() - lossOffset (what the group
    // averages, ModelReplica::averagedVectorSize() values). Zeros when nothing was accumulated.
    std::vector<float> gradientVector(double lossOffset) const;
    // Samples per micro-batch from the next one on: the user's memory limit, changed while training.
    void setMicroBatchSize(int samples);
    int microBatchSize() const;
    // Forget the accumulation: the sum back to zeros.
    void reset();
    // Lines for the log from every core and the shard feed since the last call.
    std::vector<std::string> takeMessages();
    // Seconds the peer waited for its next shard since the last call (the prefetch was late).
    double takeDataWaitSeconds();

    // How long the peer waits for its next shard before it goes through the current one again.
    static constexpr std::chrono::seconds kDataPatience{30};
    // The cursor is saved every this many micro-batches (and at every new shard).
    static constexpr std::uint64_t kRecordEvery = 20;

private:
    using Clock = std::chrono::steady_clock;
    // Opens the training stream over `path` at `cursor` (its seed chosen now when it has none).
    void openShard(const QString& path, DataCursor cursor);
    // Whether there is data to draw from: false while the current shard is consumed and the next is not
    // here yet (for at most kDataPatience).
    bool dataReady();
    void recordCursor();
    // Adds the wait since waitingSince_ (if any) to dataWaitSeconds_ and ends it.
    void endWait(Clock::time_point now);

    AccumulatorOptions options_;
    std::unique_ptr<text::Tokenizer> tokenizer_;
    std::unique_ptr<text::PretrainingStream> stream_;
    DataCursor cursor_;                // the current shard's place; its stream position is the stream's
    std::uint64_t consumedAtPass_ = 1; // the stream's pass at which the current shard counts as consumed
    std::optional<Clock::time_point> waitingSince_;
    double dataWaitSeconds_ = 0.0;
    std::uint64_t batchesSinceRecord_ = 0;
    std::vector<std::string> feedMessages_;
    std::vector<std::unique_ptr<CoreSupervisor>> cores_;
    std::vector<float> sum_;
    std::int64_t samples_ = 0;
    std::int64_t tokens_ = 0;
    double lossSum_ = 0.0;
    double lastComputeSeconds_ = 0.0;
};

} // namespace sahaj::engine
