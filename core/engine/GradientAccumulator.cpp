#include "core/engine/GradientAccumulator.h"

#include "core/engine/ModelReplica.h"
#include "core/text/PortableRandom.h"
#include "core/text/Tokenizer.h"

#include <algorithm>
#include <stdexcept>
#include <thread>

namespace sahaj::engine {

GradientAccumulator::GradientAccumulator(AccumulatorOptions options,
                                         std::vector<std::unique_ptr<CoreSupervisor>> cores,
                                         std::int64_t parameterCount)
    : options_(std::move(options)), cores_(std::move(cores)),
      sum_(static_cast<std::size_t>(parameterCount), 0.0f) {
    if (cores_.empty())
        throw std::invalid_argument("a gradient accumulator needs a compute core");
    tokenizer_ = std::make_unique<text::Tokenizer>(text::Tokenizer::fromFile(options_.tokenizerPath));
    openShard(options_.corpusPath, options_.start);
}

void GradientAccumulator::openShard(const QString& path, DataCursor cursor) {
    if (!options_.feed) {
        cursor.seed = options_.seed; // one corpus, gone through pass after pass: the peer's own seed
    } else if (cursor.seed == 0) {
        // Each shard its own shuffle, drawn from the peer's seed and the shard's place in its stream; never
        // 0, which means "not chosen".
        cursor.seed = text::PortableRandom::deriveSeed(options_.seed, {cursor.pass, cursor.position}) | 1;
    }
    text::PretrainingStreamOptions streamOptions;
    streamOptions.corpus.documents = options_.documents;
    streamOptions.mlmProbability = options_.mlmProbability;
    const int batchSize = stream_ ? stream_->batchSize() : options_.microBatchSize;
    stream_ = std::make_unique<text::PretrainingStream>(path, *tokenizer_, options_.sequenceLength, batchSize,
                                                        cursor.seed, streamOptions, cursor.stream);
    cursor_ = std::move(cursor);
    consumedAtPass_ = 1;
    recordCursor();
}

void GradientAccumulator::recordCursor() {
    batchesSinceRecord_ = 0;
    if (!options_.feed)
        return;
    cursor_.stream = stream_->position();
    if (const QString problem = options_.feed->record(cursor_); !problem.isEmpty())
        feedMessages_.push_back(problem.toStdString());
}

bool GradientAccumulator::dataReady() {
    if (!options_.feed || stream_->position().pass < consumedAtPass_)
        return true;
    const Clock::time_point now = Clock::now();
    if (std::optional<ShardFeed::Shard> next = options_.feed->takeNext()) {
        endWait(now);
        try {
            openShard(next->path, next->cursor);
            return true;
        } catch (const std::exception& e) {
            // A shard that checked out but cannot be read now (removed under the volunteer): the current
            // one goes on, and the feed brings the one after.
            feedMessages_.push_back(std::string("the next shard cannot be read: ") + e.what());
            consumedAtPass_ = stream_->position().pass + 1;
            return true;
        }
    }
    if (!waitingSince_)
        waitingSince_ = now;
    if (now - *waitingSince_ < kDataPatience)
        return false;
    endWait(now);
    consumedAtPass_ = stream_->position().pass + 1;
    feedMessages_.push_back("the next shard is not here after " + std::to_string(kDataPatience.count()) +
                            " s: another pass over the current one meanwhile");
    return true;
}

void GradientAccumulator::endWait(Clock::time_point now) {
    if (waitingSince_)
        dataWaitSeconds_ += std::chrono::duration<double>(now - *waitingSince_).count();
    waitingSince_.reset();
}

double GradientAccumulator::takeDataWaitSeconds() {
    if (waitingSince_) { // count the wait so far, and go on counting from now
        const Clock::time_point now = Clock::now();
        endWait(now);
        waitingSince_ = now;
    }
    return std::exchange(dataWaitSeconds_, 0.0);
}

GradientAccumulator::~GradientAccumulator() {
    // Where the peer stopped inside its shard: the next start goes on from there.
    if (stream_)
        recordCursor();
}

std::int64_t GradientAccumulator::accumulate(const ModelReplica& replica) {
    lastComputeSeconds_ = 0.0;
    if (!dataReady()) {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        return 0;
    }
    std::vector<CoreSupervisor*> working;
    for (const std::unique_ptr<CoreSupervisor>& core : cores_)
        // A failed core waits for its restart: no batch is drawn for it meanwhile.
        if (core->ready() && core->submit(stream_->next(), replica.parameters(), replica.generation()))
            working.push_back(core.get());
    if (working.empty()) {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        return 0;
    }
    batchesSinceRecord_ += working.size();
    if (batchesSinceRecord_ >= kRecordEvery)
        recordCursor();
    std::int64_t added = 0;
    for (CoreSupervisor* core : working) { // in a fixed order: the sum's bits do not depend on timing
        const std::optional<ComputeCore::Result> result = core->collect(sum_);
        if (!result)
            continue;
        lastComputeSeconds_ = std::max(lastComputeSeconds_, result->wallSeconds);
        samples_ += result->samples;
        tokens_ += result->tokens;
        lossSum_ += result->loss * static_cast<double>(result->samples);
        added += result->samples;
    }
    return added;
}

std::vector<std::string> GradientAccumulator::takeMessages() {
    std::vector<std::string> messages;
    for (const std::unique_ptr<CoreSupervisor>& core : cores_)
        for (std::string& message : core->takeMessages())
            messages.push_back(std::move(message));
    if (options_.feed)
        for (const QString& line : options_.feed->takeMessages())
            messages.push_back(line.toStdString());
    for (std::string& message : feedMessages_)
        messages.push_back(std::move(message));
    feedMessages_.clear();
    return messages;
}

std::vector<float> GradientAccumulator::gradientVector(double lossOffset) const {
    std::vector<float> flat(sum_.size() + 1, 0.0f);
    if (samples_ == 0)
        return flat;
    const double scale = 1.0 / static_cast<double>(samples_);
    // fp32 times the fp64 scale rounded to fp32, as torch's grad * scale computed it
    const auto factor = static_cast<float>(scale);
    std::transform(sum_.begin(), sum_.end(), flat.begin(), [factor](float value) { return value * factor; });
    flat.back() = static_cast<float>(meanLoss() - lossOffset);
    return flat;
}

void GradientAccumulator::setMicroBatchSize(int samples) {
    stream_->setBatchSize(samples);
}

int GradientAccumulator::microBatchSize() const {
    return stream_->batchSize();
}

void GradientAccumulator::reset() {
    std::fill(sum_.begin(), sum_.end(), 0.0f);
    samples_ = 0;
    tokens_ = 0;
    lossSum_ = 0.0;
}

} // namespace sahaj::engine
