#pragma once

#include "core/engine/VolunteerSettings.h"

#include <QCoreApplication>

QT_BEGIN_NAMESPACE
class QDoubleSpinBox;
class QFormLayout;
class QSpinBox;
QT_END_NAMESPACE

namespace sahaj::ui {

// The fields that edit the engine's limits and the daily transfer quota, shared by the first-run wizard
// and the settings dialog so that both offer the same ranges, units and wording. The form places the
// rows (the wizard asks for the micro-batch on its hardware page, apart from the others); each add...Row
// creates its fields in the form's widget, in the order a keyboard user tabs through them.
class LimitsFields {
    Q_DECLARE_TR_FUNCTIONS(sahaj::ui::LimitsFields)

public:
    static constexpr int kMaxDailyQuotaMB = 10'000'000; // 10 TB a day: beyond any home connection

    void addComputeRow(QFormLayout* form);
    void addMicroBatchRow(QFormLayout* form);
    // The upload cap, the download cap and the daily quota.
    void addTransferRows(QFormLayout* form);

    // Shows the limits and the daily quota of `settings`; every row must have been added.
    void load(const engine::VolunteerSettings& settings);
    // Writes what the fields say into the limits and the daily quota of `settings`.
    void storeInto(engine::VolunteerSettings& settings) const;

    QSpinBox* computePercent() const { return computePercent_; }
    QSpinBox* microBatch() const { return microBatch_; }
    QDoubleSpinBox* maxUpload() const { return maxUpload_; }
    QDoubleSpinBox* maxDownload() const { return maxDownload_; }
    QSpinBox* dailyQuota() const { return dailyQuota_; }

private:
    QSpinBox* computePercent_ = nullptr;
    QSpinBox* microBatch_ = nullptr;
    QDoubleSpinBox* maxUpload_ = nullptr;
    QDoubleSpinBox* maxDownload_ = nullptr;
    QSpinBox* dailyQuota_ = nullptr;
};

} // namespace sahaj::ui
