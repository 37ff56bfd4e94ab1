#include "core/engine/ModelReplica.h"

#include "core/model/AlbertForPreTraining.h"
#include "core/model/ModelCheckpoint.h"
#include "core/train/GradientClipping.h"
#include "core/train/Lamb.h"
#include "core/train/ParameterGrouping.h"

#include <QCryptographicHash>

#include <torch/torch.h>

#include <cmath>
#include <cstring>
#include <stdexcept>

namespace sahaj::engine {

namespace {

std::vector<at::Tensor> parametersOf(model::AlbertForPreTraining& model) {
    std::vector<at::Tensor> result;
    for (const auto& item : model->named_parameters())
        result.push_back(item.value());
    return result;
}

void hashTensor(QCryptographicHash& hash, const at::Tensor& tensor) {
    const at::Tensor cpu = tensor.detach().to(torch::kCPU, torch::kFloat32).contiguous();
    hash.addData(QByteArrayView(static_cast<const char*>(cpu.data_ptr()),
                                static_cast<qsizetype>(cpu.numel() * sizeof(float))));
}

} // namespace

ModelReplica::ModelReplica(const model::AlbertConfig& config, const run::TrainingSettings& settings,
                           std::uint64_t initSeed, c10::Device device)
    : settings_(settings), schedule_(settings.lamb.learningRate, settings.warmupSteps,
                                     std::max<std::int64_t>(settings.totalSteps, 1)),
      device_(device) {
    at::manual_seed(initSeed);
    model_ = std::make_unique<model::AlbertForPreTraining>(config);
    (*model_)->to(device_);
    (*model_)->train();
    optimizer_ = std::make_unique<train::Lamb>(
        train::ParameterGrouping::split(**model_, settings.lamb.weightDecay), settings.lamb);
    parameterCount_ = (*model_)->parameterCount();
}

ModelReplica::~ModelReplica() = default;

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
    optimizer_->zeroGrad();
}

ModelReplica::StepOutcome ModelReplica::applyAveragedGradient(const std::vector<float>& averaged) {
    if (static_cast<std::int64_t>(averaged.size()) != averagedVectorSize())
        throw std::invalid_argument("the averaged vector has " + std::to_string(averaged.size()) +
                                    " values, the model needs " + std::to_string(averagedVectorSize()));
    StepOutcome outcome;
    {
        torch::NoGradGuard noGrad;
        std::size_t offset = 0;
        for (const auto& item : (*model_)->named_parameters()) {
            at::Tensor parameter = item.value();
            const at::Tensor values = torch::from_blob(const_cast<float*>(averaged.data() + offset),
                                                       parameter.sizes(), torch::kFloat32)
                                          .to(parameter.device(), parameter.scalar_type());
            parameter.mutable_grad() = values.clone();
            offset += static_cast<std::size_t>(parameter.numel());
        }
    }
    const std::vector<at::Tensor> parameters = parametersOf(*model_);
    outcome.gradientNorm = train::clipGradientNorm(parameters, settings_.clipNorm);
    outcome.learningRate = schedule_.learningRate(static_cast<std::int64_t>(epoch_));
    if (std::isfinite(outcome.gradientNorm)) {
        optimizer_->setLearningRate(outcome.learningRate);
        optimizer_->step();
        outcome.applied = true;
    }
    optimizer_->zeroGrad();
    ++epoch_;
    return outcome;
}

std::vector<float> ModelReplica::stateVector() const {
    std::vector<float> flat(static_cast<std::size_t>(averagedStateSize()));
    const std::map<std::string, at::Tensor> moments = optimizer_->exportState();
    const auto copy = [&flat](const at::Tensor& tensor, std::size_t offset) {
        const at::Tensor cpu = tensor.detach().to(torch::kCPU, torch::kFloat32).contiguous();
        std::memcpy(flat.data() + offset, cpu.data_ptr<float>(),
                    static_cast<std::size_t>(cpu.numel()) * sizeof(float));
    };
    const auto count = static_cast<std::size_t>(parameterCount_);
    std::size_t offset = 0;
    for (const auto& item : (*model_)->named_parameters()) {
        copy(item.value(), offset);
        copy(moments.at(item.key() + train::Lamb::kExpAvgSuffix), count + offset);
        copy(moments.at(item.key() + train::Lamb::kExpAvgSqSuffix), 2 * count + offset);
        offset += static_cast<std::size_t>(item.value().numel());
    }
    return flat;
}

void ModelReplica::setStateVector(const std::vector<float>& values) {
    if (static_cast<std::int64_t>(values.size()) != averagedStateSize())
        throw std::invalid_argument("a state vector of " + std::to_string(values.size()) +
                                    " values for a model of " + std::to_string(parameterCount_) +
                                    " parameters");
    for (float value : values)
        if (!std::isfinite(value))
            throw std::invalid_argument("a state vector with non-finite values");
    std::map<std::string, at::Tensor> moments = optimizer_->exportState();
    const auto count = static_cast<std::size_t>(parameterCount_);
    const auto slice = [&values](std::size_t offset, const at::Tensor& like) {
        return torch::from_blob(const_cast<float*>(values.data() + offset), like.sizes(), torch::kFloat32)
            .to(like.scalar_type())
            .clone();
    };
    std::size_t offset = 0;
    for (const auto& item : (*model_)->named_parameters()) {
        at::Tensor& expAvg = moments.at(item.key() + train::Lamb::kExpAvgSuffix);
        at::Tensor& expAvgSq = moments.at(item.key() + train::Lamb::kExpAvgSqSuffix);
        expAvg = slice(count + offset, expAvg);
        expAvgSq = slice(2 * count + offset, expAvgSq);
        offset += static_cast<std::size_t>(item.value().numel());
    }
    optimizer_->importState(moments); // validates everything before changing anything
    torch::NoGradGuard noGrad;
    offset = 0;
    for (const auto& item : (*model_)->named_parameters()) {
        at::Tensor parameter = item.value();
        parameter.copy_(
            torch::from_blob(const_cast<float*>(values.data() + offset), parameter.sizes(), torch::kFloat32));
        offset += static_cast<std::size_t>(parameter.numel());
    }
}

collab::TrainingState ModelReplica::exportState() const {
    collab::TrainingState state;
    state.epoch = epoch_;
    state.step = static_cast<std::int64_t>(epoch_);
    for (const auto& item : (*model_)->named_parameters())
        state.parameters[item.key()] = item.value().detach().to(torch::kCPU).clone();
    state.optimizer = optimizer_->exportState();
    return state;
}

void ModelReplica::importState(const collab::TrainingState& state, const std::string& origin) {
    // Check everything first: a state that half fits must change nothing.
    model::SafeTensors::Tensors parameters;
    for (const auto& item : (*model_)->named_parameters()) {
        const auto found = state.parameters.find(item.key());
        if (found == state.parameters.end())
            throw std::runtime_error(origin + ": the state lacks parameter " + item.key());
        if (found->second.sizes() != item.value().sizes())
            throw std::runtime_error(origin + ": parameter " + item.key() + " has another shape");
        if (!torch::isfinite(found->second).all().item<bool>())
            throw std::runtime_error(origin + ": parameter " + item.key() + " has non-finite values");
    }
    if (state.parameters.size() != (*model_)->named_parameters().size())
        throw std::runtime_error(origin + ": the state has parameters this model does not");
    try { // Lamb::importState checks everything before it changes anything
        optimizer_->importState(state.optimizer);
    } catch (const std::exception& e) {
        throw std::runtime_error(origin + ": " + e.what());
    }
    torch::NoGradGuard noGrad;
    for (const auto& item : (*model_)->named_parameters())
        item.value().copy_(state.parameters.at(item.key()));
    epoch_ = state.epoch;
}

std::string ModelReplica::parameterSha256() const {
    QCryptographicHash hash(QCryptographicHash::Sha256);
    for (const auto& item : (*model_)->named_parameters())
        hashTensor(hash, item.value());
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
    torch::NoGradGuard noGrad;
    for (const auto& item : (*model_)->named_parameters())
        if (!torch::isfinite(item.value()).all().item<bool>())
            return false;
    return true;
}

} // namespace sahaj::engine
