#include "ui/widgets/LimitsFields.h"

#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QSpinBox>

#include <algorithm>
#include <cmath>

namespace sahaj::ui {

namespace {

// An upload or download cap in Mbit/s; 0 reads "No cap".
QDoubleSpinBox* capSpinBox(QWidget* parent, const QString& objectName) {
    auto* box = new QDoubleSpinBox(parent);
    box->setObjectName(objectName);
    box->setRange(0.0, engine::EngineLimits::kMaxMbps);
    box->setDecimals(1);
    box->setSingleStep(1.0);
    box->setSuffix(LimitsFields::tr(" Mbit/s"));
    box->setSpecialValueText(LimitsFields::tr("No cap"));
    return box;
}

} // namespace

void LimitsFields::addComputeRow(QFormLayout* form) {
    computePercent_ = new QSpinBox(form->parentWidget());
    computePercent_->setObjectName(QStringLiteral("computeSpin"));
    computePercent_->setRange(1, 100);
    computePercent_->setSuffix(tr(" %"));
    computePercent_->setToolTip(tr("Share of the time the GPU or CPU spends on Sahaj"));
    form->addRow(tr("Compute usa&ge:"), computePercent_);
}

void LimitsFields::addMicroBatchRow(QFormLayout* form) {
    microBatch_ = new QSpinBox(form->parentWidget());
    microBatch_->setObjectName(QStringLiteral("microBatchSpin"));
    microBatch_->setRange(1, engine::EngineLimits::kMaxMicroBatch);
    microBatch_->setToolTip(tr("Samples computed at once: fewer use less memory"));
    form->addRow(tr("&Micro-batch (memory):"), microBatch_);
}

void LimitsFields::addTransferRows(QFormLayout* form) {
    maxUpload_ = capSpinBox(form->parentWidget(), QStringLiteral("uploadSpin"));
    form->addRow(tr("Upload ca&p:"), maxUpload_);
    maxDownload_ = capSpinBox(form->parentWidget(), QStringLiteral("downloadSpin"));
    form->addRow(tr("Dow&nload cap:"), maxDownload_);

    dailyQuota_ = new QSpinBox(form->parentWidget());
    dailyQuota_->setObjectName(QStringLiteral("quotaSpin"));
    dailyQuota_->setRange(0, kMaxDailyQuotaMB);
    dailyQuota_->setSingleStep(100);
    dailyQuota_->setSuffix(tr(" MB"));
    dailyQuota_->setSpecialValueText(tr("No quota"));
    form->addRow(tr("Daily &transfer quota:"), dailyQuota_);
}

void LimitsFields::load(const engine::VolunteerSettings& settings) {
    Q_ASSERT(computePercent_ && microBatch_ && maxUpload_ && maxDownload_ && dailyQuota_);
    computePercent_->setValue(static_cast<int>(std::lround(settings.limits.computePercent)));
    microBatch_->setValue(settings.limits.microBatch);
    maxUpload_->setValue(settings.limits.maxUploadMbps);
    maxDownload_->setValue(settings.limits.maxDownloadMbps);
    // A quota beyond the field's range (a hand-edited file) shows as the largest it can hold.
    dailyQuota_->setValue(static_cast<int>(std::clamp<qint64>(settings.dailyQuotaMB, 0, kMaxDailyQuotaMB)));
}

void LimitsFields::storeInto(engine::VolunteerSettings& settings) const {
    settings.limits.computePercent = computePercent_->value();
    settings.limits.microBatch = microBatch_->value();
    settings.limits.maxUploadMbps = maxUpload_->value();
    settings.limits.maxDownloadMbps = maxDownload_->value();
    settings.dailyQuotaMB = dailyQuota_->value();
}

} // namespace sahaj::ui
