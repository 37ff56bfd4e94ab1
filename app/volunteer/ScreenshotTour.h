#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QString>
#include <QTimer>

#include <functional>

namespace sahaj::engine {
class EngineFacade;
}
namespace sahaj::ui {
class MainWindow;
} // namespace sahaj::ui

namespace sahaj::volunteer {

// scripts/screenshots.sh's eyes: once the demo is alive (this peer has trained several global steps in a
// group, the peer list holds the others with their latency, the ledger has epochs), renders every panel,
// the settings dialog, the join wizard, the join dialog and the tray menu into PNG files; then the states a
// volunteer meets later: a link that is not a run named on the wizard's join page, the Training panel while
// paused, the window once every other peer has gone ("disconnected — retrying", after `endCollaboration`
// stops the demo's peers), and the window stopping after Quit. Then it says it finished. Names end in "-bn"
// when the app speaks Bengali.
class ScreenshotTour : public QObject {
    Q_OBJECT
public:
    static constexpr int kPatienceMs = 10 * 60 * 1000;

    ScreenshotTour(engine::EngineFacade& engine, ui::MainWindow& window, QString folder,
                   std::function<void()> endCollaboration);
    void start();

Q_SIGNALS:
    // ok: every picture written with the demo alive; false: written after the patience ran out, or not at
    // all.
    void finished(bool ok);

private:
    bool demoAlive() const;
    bool shoot();
    bool shootLaterStates();
    // Processes events until `reached` holds or `timeoutMs` passes; whether it held.
    static bool waitUntil(const std::function<bool()>& reached, int timeoutMs);
    bool save(QWidget& widget, const QString& name);

    engine::EngineFacade& engine_;
    ui::MainWindow& window_;
    QString folder_;
    std::function<void()> endCollaboration_;
    QTimer poll_;
    QElapsedTimer clock_;
};

} // namespace sahaj::volunteer
