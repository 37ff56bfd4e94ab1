#pragma once

#include <QList>
#include <QPointF>
#include <QWidget>

#include <vector>

QT_BEGIN_NAMESPACE
class QChart;
class QChartView;
class QGridLayout;
class QLabel;
class QLineSeries;
class QProgressBar;
class QStackedWidget;
class QValueAxis;
QT_END_NAMESPACE

namespace sahaj::engine {
class EngineFacade;
}

namespace sahaj::ui {

class DownloadProgress;

// How the collaboration's training goes: the state, the download of the run's files while the engine
// prepares, the global epoch, the current batch filling up towards its target, the time until the next
// step, who is online, the speeds, and the loss curve of the run. A view of the latest engine snapshot, drawn
// again whenever the engine publishes one.
class TrainingPanel : public QWidget {
    Q_OBJECT

public:
    explicit TrainingPanel(engine::EngineFacade& engine, QWidget* parent = nullptr);

public Q_SLOTS:
    // Draws the engine's current snapshot.
    void render();

private:
    QLabel* addFigure(int row, int column, const QString& caption, const QString& objectName,
                      const QString& help);
    QWidget* buildLossChart();
    void showLossSegments(const QList<QList<QPointF>>& segments);
    void showBatch(double samples, quint64 target);
    void showLoss();

    engine::EngineFacade& engine_;

    QGridLayout* figures_ = nullptr;
    QLabel* stateValue_ = nullptr;
    DownloadProgress* download_ = nullptr;
    QLabel* epochValue_ = nullptr;
    QLabel* etaValue_ = nullptr;
    QLabel* peersValue_ = nullptr;
    QLabel* clientsValue_ = nullptr;
    QLabel* localRateValue_ = nullptr;
    QLabel* computeValue_ = nullptr;
    QLabel* collaborationRateValue_ = nullptr;
    QProgressBar* batchProgress_ = nullptr;
    QStackedWidget* lossStack_ = nullptr;
    QLabel* lossEmpty_ = nullptr;
    QChartView* lossView_ = nullptr;
    QChart* lossChart_ = nullptr;
    // One line per run of consecutive epochs: epochs this peer missed (paused, or caught up by loading a
    // state) are a gap, not a straight line across them.
    std::vector<QLineSeries*> lossSegments_;
    QValueAxis* epochAxis_ = nullptr;
    QValueAxis* lossAxis_ = nullptr;
};

} // namespace sahaj::ui
