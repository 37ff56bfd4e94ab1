#pragma once

#include "core/engine/EngineSnapshot.h"

#include <QWidget>

QT_BEGIN_NAMESPACE
class QLabel;
class QProgressBar;
QT_END_NAMESPACE

namespace sahaj::ui {

// A download of the run's files while the engine prepares to train (engine::DataDownload): the file's
// name, a bar with the bytes so far of its size, the rate and the time left. Shared by the join wizard
// and the Training panel so that both word it alike. It hides itself while no download is active: a
// finished download leaves nothing on screen.
class DownloadProgress : public QWidget {
    Q_OBJECT
public:
    explicit DownloadProgress(QWidget* parent = nullptr);

    // Shows `download`, or hides the widget when it is not active.
    void setDownload(const engine::DataDownload& download);

private:
    QLabel* name_ = nullptr;
    QProgressBar* bar_ = nullptr;
    QLabel* figures_ = nullptr;
};

} // namespace sahaj::ui
