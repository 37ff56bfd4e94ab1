#include "ui/widgets/DownloadProgress.h"

#include "ui/format/Figures.h"

#include <QLabel>
#include <QProgressBar>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace sahaj::ui {

namespace {

// QProgressBar counts in int and a shard may be larger than 2 GiB: the bar counts thousandths.
constexpr int kBarSteps = 1000;

// The name comes from the run's manifest, which anyone may have written: plain text, never markup.
QLabel* plainLabel(const QString& objectName, QWidget* parent) {
    auto* label = new QLabel(parent);
    label->setObjectName(objectName);
    label->setTextFormat(Qt::PlainText);
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return label;
}

} // namespace

DownloadProgress::DownloadProgress(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("downloadProgress"));
    setAccessibleName(tr("Download"));

    name_ = plainLabel(QStringLiteral("downloadName"), this);
    bar_ = new QProgressBar(this);
    bar_->setObjectName(QStringLiteral("downloadBar"));
    bar_->setAccessibleName(tr("Progress of the download"));
    bar_->setTextVisible(true);
    bar_->setAlignment(Qt::AlignCenter);
    figures_ = plainLabel(QStringLiteral("downloadFigures"), this);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(name_);
    layout->addWidget(bar_);
    layout->addWidget(figures_);
    hide(); // until a download begins
}

void DownloadProgress::setDownload(const engine::DataDownload& download) {
    setVisible(download.active);
    if (!download.active)
        return;

    name_->setText(download.name.isEmpty() ? tr("Downloading the run's data")
                                           : tr("Downloading %1").arg(download.name));
    const double done = static_cast<double>(std::max<qint64>(download.done, 0));
    QStringList figures;
    if (download.total > 0) {
        const double total = static_cast<double>(download.total);
        // A snapshot is not trusted to keep done within the size.
        const double fraction = std::clamp(done / total, 0.0, 1.0);
        bar_->setRange(0, kBarSteps);
        bar_->setValue(static_cast<int>(std::lround(fraction * kBarSteps)));
        bar_->setFormat(
            tr("%1 of %2 (%3)").arg(Figures::bytes(done), Figures::bytes(total), Figures::percent(fraction)));
    } else {
        // No size to measure against: a busy bar, and the bytes so far beside it.
        bar_->setRange(0, 0);
        figures << tr("%1 so far").arg(Figures::bytes(done));
    }
    figures << Figures::rate(std::max(download.bytesPerSecond, 0.0));
    figures << (download.etaSeconds >= 0 ? tr("%1 left").arg(Figures::duration(download.etaSeconds))
                                         : tr("time left unknown"));
    figures_->setText(figures.join(QStringLiteral(" · ")));
}

} // namespace sahaj::ui
