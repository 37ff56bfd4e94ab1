#include "core/engine/ModelReplica.h"

#include "core/engine/OptimizerStateArrays.h"
#include "core/model/AlbertForPreTraining.h"
#include "core/model/AlbertInitialization.h"
#include "core/optim/FlatGradientClipping.h"
#include "core/optim/FlatLamb.h"
#include "core/optim/ParameterInitializer.h"
#include "core/train/ParameterGrouping.h"

#include <QCryptographicHash>

#include <torch/torch.h>

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
                           std::uint64_t initSeed, c10::Device device)
    : settings_(settings), schedule_(settings.lamb.learningRate, settings.warmupSteps,
                                     std::max<std::int64_t>(settings.totalSteps, 1)),
      device_(device) {
    at::manual_seed(initSeed); // torch's own draws (dropout) stay seeded as before
    model_ = std::make_unique<model::AlbertForPreTraining>(config);
    (*model_)->to(device_);
    (*model_)->train();
    parameterCount_ = (*model_)->parameterCount();
    parameters_.resize(static_cast<std::size_t>(parameterCount_));
    // The initial values come from the run's seed through plain C++, not from torch's generator, whose
    // normal_ draws other values on CPUs with other vector units.
    const auto rules = model::albertInitialValueRules(**model_, config.initializerRange);
    std::size_t offset = 0;
    for (const auto& item : (*model_)->named_parameters()) {
        const auto count = static_cast<std::size_t>(item.value().numel());
        optim::ParameterInitializer::fill(std::span<float>(parameters_.data() + offset, count),
                                          rules.at(item.key()), initSeed, item.key());
        const double decay =
            train::ParameterGrouping::excludedFromWeightDecay(item.key()) ? 0.0 : settings.lamb.weightDecay;
        segments_.push_back({item.key(), offset, count, decay});
        shapes_.push_back(item.value().sizes().vec());
        offset += count;
    }
    optimizer_ = std::make_unique<optim::FlatLamb>(segments_, settings.lamb);
    loadParametersIntoModel();
}

ModelReplica::~ModelReplica() = default;

void ModelReplica::loadParametersIntoModel() {
    torch::NoGradGuard noGrad;
    std::size_t index = 0;
    for (const auto& item : (*model_)->named_parameters()) {
        const optim::ParameterSegment& segment = segments_[index++];
        item.value().copy_(
            torch::from_blob(parameters_.data() + segment.offset, item.value().sizes(), torch::kFloat32));
    }
}

std::vector<float> ModelReplica::gradientVector(std::int64_t samples, double meanLoss) const {
    std::vector<float> flat(static_cast<std::size_t>(averagedVectorSize()), 0.0f);
    const double scale = samples > 0 ? 1.0 / static_cast<double>(samples) : 0.0;
    std::size_t offset = 0;
    torch::NoGradGuard noGrad;
    for (const auto& item : (*model_)->named_parameters()) {
        const at::Tensor& parameter = item.value();
        const auto count = static_cast<std::size_t>(parameter.numel());
        if (parameter.grad().defined() && scale > 0.0) {
            const at::Tensor grad = (parameter.grad().to(torch::kCPU, torch::kFloat32) * scale).contiguous();
            std::memcpy(flat.data() + offset, grad.data_ptr<float>(), count * sizeof(float));
        }
        offset += count;
    }
    flat.back() = samples > 0 ? static_cast<float>(meanLoss - lossOffset()) : 0.0f;
    return flat;
}

double ModelReplica::lossOffset() const {
    return std::log(static_cast<double>((*model_)->config().vocabSize)) + std::log(2.0);
}

void ModelReplica::zeroGradients() {
    for (const auto& item : (*model_)->named_parameters())
        if (item.value().grad().defined())
            item.value().mutable_grad().reset();
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
        loadParametersIntoModel();
        outcome.applied = true;
    }
    zeroGradients();
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
    loadParametersIntoModel();
}

collab::TrainingState ModelReplica::exportState() const {
    collab::TrainingState state;
    state.epoch = epoch_;
    state.step = static_cast<std::int64_t>(epoch_);
    for (std::size_t i = 0; i < segments_.size(); ++i)
        state.parameters[segments_[i].name] =
            array::HostArray::ofFloats(shapes_[i], parameters_.data() + segments_[i].offset);
    state.optimizer = OptimizerStateArrays::toArrays(*optimizer_, shapes_);
    return state;
}

void ModelReplica::importState(const collab::TrainingState& state, const std::string& origin) {
    // Check everything first: a state that half fits must change nothing.
    std::vector<float> parameters(parameters_.size());
    for (std::size_t i = 0; i < segments_.size(); ++i) {
        const optim::ParameterSegment& segment = segments_[i];
        const auto found = state.parameters.find(segment.name);
        if (found == state.parameters.end())
            throw std::runtime_error(origin + ": the state lacks parameter " + segment.name);
        if (found->second.shape != shapes_[i])
            throw std::runtime_error(origin + ": parameter " + segment.name + " has another shape");
        if (!found->second.isFloating())
            throw std::runtime_error(origin + ": parameter " + segment.name + " is not floating point");
        try {
            found->second.copyFloatsTo(parameters.data() + segment.offset);
        } catch (const std::invalid_argument& e) {
            throw std::runtime_error(origin + ": parameter " + segment.name + ": " + e.what());
        }
        if (!allFinite(parameters.data() + segment.offset, segment.length))
            throw std::runtime_error(origin + ": parameter " + segment.name + " has non-finite values");
    }
    if (state.parameters.size() != segments_.size())
        throw std::runtime_error(origin + ": the state has parameters this model does not");
    try { // FlatLamb::setState checks every value before it changes anything
        OptimizerStateArrays::Flat optimizer =
            OptimizerStateArrays::fromArrays(state.optimizer, segments_, shapes_);
        optimizer_->setState(std::move(optimizer.firstMoments), std::move(optimizer.secondMoments),
                             std::move(optimizer.steps));
    } catch (const std::exception& e) {
        throw std::runtime_error(origin + ": " + e.what());
    }
    parameters_ = std::move(parameters);
    loadParametersIntoModel();
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
    for (const auto& item : (*model_)->named_parameters()) {
        hash.addData(QByteArray::fromStdString(item.key()));
        for (const std::int64_t size : item.value().sizes())
            hash.addData(QByteArray::number(static_cast<qlonglong>(size)) + ',');
        hash.addData(QByteArray(item.value().dtype().name().data()));
    }
    return hash.result().toHex().toStdString(); // text: it also goes into safetensors metadata
}

bool ModelReplica::parametersFinite() const {
    return allFinite(parameters_.data(), parameters_.size());
}

} // namespace sahaj::engine
