#include "core/train/TrainingLog.h"

#include "core/array/AtomicFile.h"

#include <QJsonDocument>
#include <QJsonValue>

#include <stdexcept>
#include <string>

namespace sahaj::train {

namespace {

[[noreturn]] void fail(const QFile& file, const QString& what) {
    throw std::runtime_error((what + " " + file.fileName() + ": " + file.errorString()).toStdString());
}

} // namespace

TrainingLog::TrainingLog(const std::filesystem::path& file, std::optional<std::int64_t> keepUpToStep)
    : file_(QString::fromStdString(file.string())) {
    if (keepUpToStep && file_.exists()) {
        if (!file_.open(QIODevice::ReadOnly))
            fail(file_, "cannot read the training log");
        std::string kept;
        while (!file_.atEnd()) {
            const QByteArray line = file_.readLine().trimmed();
            QJsonParseError error;
            const QJsonDocument record = QJsonDocument::fromJson(line, &error);
            if (error.error != QJsonParseError::NoError || !record.isObject())
                continue; // a line torn by a crash
            const QJsonValue step = record.object().value("step");
            if (step.isDouble() && step.toInteger() <= *keepUpToStep)
                kept += line.toStdString() + "\n";
        }
        file_.close();
        array::AtomicFile::write(file, kept);
    }
    const QIODevice::OpenMode mode = keepUpToStep ? QIODevice::Append : QIODevice::Truncate;
    if (!file_.open(QIODevice::WriteOnly | mode))
        fail(file_, "cannot write the training log");
}

void TrainingLog::append(const TrainingStepReport& report) {
    const QByteArray line = QJsonDocument(toJson(report)).toJson(QJsonDocument::Compact) + '\n';
    if (file_.write(line) != line.size() || !file_.flush())
        fail(file_, "cannot write the training log");
}

QJsonObject TrainingLog::toJson(const TrainingStepReport& r) {
    QJsonObject o;
    o["step"] = qint64(r.step);
    o["total_steps"] = qint64(r.totalSteps);
    o["loss"] = r.loss;
    o["mlm_loss"] = r.mlmLoss;
    o["sop_loss"] = r.sopLoss;
    o["mlm_accuracy"] = r.mlmAccuracy;
    o["sop_accuracy"] = r.sopAccuracy;
    o["lr"] = r.learningRate;
    o["grad_norm"] = r.gradientNorm;
    o["samples"] = qint64(r.samples);
    o["tokens"] = qint64(r.tokens);
    o["masked_tokens"] = qint64(r.maskedTokens);
    o["samples_per_second"] = r.samplesPerSecond;
    o["tokens_per_second"] = r.tokensPerSecond;
    o["skipped"] = r.skipped;
    return o;
}

QString TrainingLog::progressLine(const TrainingStepReport& r) {
    QString line = QStringLiteral("step=%1/%2 loss=%3 mlm_loss=%4 sop_loss=%5 mlm_acc=%6 sop_acc=%7 lr=%8 "
                                  "grad_norm=%9 samples/s=%10 tokens/s=%11")
                       .arg(r.step)
                       .arg(r.totalSteps)
                       .arg(r.loss, 0, 'f', 4)
                       .arg(r.mlmLoss, 0, 'f', 4)
                       .arg(r.sopLoss, 0, 'f', 4)
                       .arg(r.mlmAccuracy, 0, 'f', 4)
                       .arg(r.sopAccuracy, 0, 'f', 4)
                       .arg(r.learningRate, 0, 'e', 4)
                       .arg(r.gradientNorm, 0, 'f', 4)
                       .arg(r.samplesPerSecond, 0, 'f', 2)
                       .arg(r.tokensPerSecond, 0, 'f', 1);
    if (r.skipped)
        line += QStringLiteral(" skipped=non-finite-gradient");
    return line;
}

} // namespace sahaj::train
