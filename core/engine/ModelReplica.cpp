#include "core/engine/ModelReplica.h"

#include "core/engine/OptimizerStateArrays.h"
#include "core/optim/FlatGradientClipping.h"
#include "core/optim/FlatLamb.h"
#include "core/optim/WeightDecayExclusion.h"

#include <QCryptographicHash>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>

namespace sahaj::engine {

namespace {

bool allFinite(const float* values, std::size_t count) {
    return std::all_of(values, values + count, [](float value) { return std::isfinite(value); });
}

} // namespace

ModelReplica::ModelReplica(const model::AlbertConfig& config, const run::TrainingSettings& settings,
                           std::uint64_t initSeed)
    : config_(config), layout_(model::AlbertParameterLayout::of(config)), settings_(settings),
      schedule_(settings.lamb.learningRate, settings.warmupSteps,
                std::max<std::int64_t>(settings.totalSteps, 1)) {
    parameterCount_ = model::AlbertParameterLayout::elements(layout_);
    // The initial values come from the run's seed through plain C++, not from torch's generator, whose
    // normal_ draws other values on CPUs with other vector units.
    parameters_ = model::AlbertParameterLayout::initialValues(layout_, initSeed);
    std::size_t offset = 0;
    for (const model::ParameterLayoutEntry& entry : layout_) {
        const auto count = static_cast<std::size_t>(entry.elements());
        const double decay = optim::excludedFromWeightDecay(entry.name) ? 0.0 : settings.lamb.weightDecay;
        segments_.push_back({entry.name, offset, count, decay});
        shapes_.push_back(entry.shape);
        offset += count;
    }
    optimizer_ = std::make_unique<optim::FlatLamb>(segments_, settings.lamb);
    fit_ = std::make_shared<const StateFit>(segments_, shapes_);
}

ModelReplica::~ModelReplica() = default;

double ModelReplica::lossOffset() const {
    return std::log(static_cast<double>(config_.vocabSize)) + std::log(2.0);
}

ModelReplica::StepOutcome ModelReplica::applyAveragedGradient(const std::vector<float>& averaged) {
    if (static_cast<std::int64_t>(averaged.size()) != averagedVectorSize())
        throw std::invalid_argument("the averaged vector has " + std::to_string(averaged.size()) +
                                    " values, the model needs " + std::to_string(averagedVectorSize()));
    StepOutcome outcome;
    std::vector<float> gradient(averaged.begin(), averaged.end() - 1); // without the loss
    outcome.gradientNorm = optim::clipFlatGradient(gradient, settings_.clipNorm);
    outcome.learningRate = schedule_.learningRate(static_cast<std::int64_t>(epoch_));
    if (std::isfinite(outcome.gradientNorm)) {
        optimizer_->setLearningRate(outcome.learningRate);
        optimizer_->step(parameters_, gradient);
        ++generation_;
        outcome.applied = true;
    }
    ++epoch_;
    return outcome;
}

std::vector<float> ModelReplica::stateVector() const {
    std::vector<float> flat;
    flat.reserve(static_cast<std::size_t>(averagedStateSize()));
    flat.insert(flat.end(), parameters_.begin(), parameters_.end());
    flat.insert(flat.end(), optimizer_->firstMoments().begin(), optimizer_->firstMoments().end());
    flat.insert(flat.end(), optimizer_->secondMoments().begin(), optimizer_->secondMoments().end());
    return flat;
}

void ModelReplica::setStateVector(const std::vector<float>& values) {
    if (static_cast<std::int64_t>(values.size()) != averagedStateSize())
        throw std::invalid_argument("a state vector of " + std::to_string(values.size()) +
                                    " values for a model of " + std::to_string(parameterCount_) +
                                    " parameters");
    const auto count = static_cast<std::ptrdiff_t>(parameterCount_);
    if (!allFinite(values.data(), static_cast<std::size_t>(count)))
        throw std::invalid_argument("a state vector with non-finite parameters");
    // FlatLamb checks the moments (finite, no negative second moment) before it changes anything.
    optimizer_->setMoments(std::vector<float>(values.begin() + count, values.begin() + 2 * count),
                           std::vector<float>(values.begin() + 2 * count, values.end()));
    std::copy(values.begin(), values.begin() + count, parameters_.begin());
    ++generation_;
}

std::vector<collab::ValueFloor> ModelReplica::stateFloors() const {
    return {{collab::ElementRange{2 * parameterCount_, parameterCount_}, 0.0f, "a second moment"}};
}

collab::TrainingState ModelReplica::exportState() const {
    collab::TrainingState state;
    state.epoch = epoch_;
    state.step = static_cast<std::int64_t>(epoch_);
    state.parameters = parameterArrays();
    state.optimizer = OptimizerStateArrays::toArrays(*optimizer_, shapes_);
    return state;
}

array::SafeTensorsImage::Arrays ModelReplica::parameterArrays() const {
    array::SafeTensorsImage::Arrays arrays;
    for (std::size_t i = 0; i < segments_.size(); ++i)
        arrays[segments_[i].name] =
            array::HostArray::ofFloats(shapes_[i], parameters_.data() + segments_[i].offset);
    return arrays;
}

void ModelReplica::importState(const collab::TrainingState& state, const std::string& origin) {
    StateFit::Flat flat =
        fit_->check(state, origin); // everything first: a state that half fits changes nothing
    optimizer_->setState(std::move(flat.optimizer.firstMoments), std::move(flat.optimizer.secondMoments),
                         std::move(flat.optimizer.steps));
    parameters_ = std::move(flat.parameters);
    ++generation_;
    epoch_ = state.epoch;
}

std::string ModelReplica::parameterSha256() const {
    QCryptographicHash hash(QCryptographicHash::Sha256);
    hash.addData(QByteArrayView(reinterpret_cast<const char*>(parameters_.data()),
                                static_cast<qsizetype>(parameters_.size() * sizeof(float))));
    return hash.result().toHex().toStdString();
}

std::string ModelReplica::schemaHash(const std::string& runIdentity) const {
    QCryptographicHash hash(QCryptographicHash::Sha256);
    hash.addData(QByteArray::fromStdString(runIdentity));
    for (const model::ParameterLayoutEntry& entry : layout_) {
        hash.addData(QByteArray::fromStdString(entry.name));
        for (const std::int64_t size : entry.shape)
            hash.addData(QByteArray::number(static_cast<qlonglong>(size)) + ',');
        hash.addData(QByteArrayLiteral("float")); // the dtype's name, as torch spelt it: every value is fp32
    }
    return hash.result().toHex().toStdString(); // text: it also goes into safetensors metadata
}

bool ModelReplica::parametersFinite() const {
    return allFinite(parameters_.data(), parameters_.size());
}

} // namespace sahaj::engine
