#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QString>
#include <QTimer>

namespace sahaj::engine {
class EngineFacade;
}
namespace sahaj::ui {
class MainWindow;
} // namespace sahaj::ui

namespace sahaj::volunteer {

// scripts/screenshots.sh's eyes: once the demo is alive (this peer has trained several global steps in a
// group, the peer list holds the others with their latency, the ledger has epochs), renders every panel,
// the settings dialog, the join wizard and the tray menu into PNG files, then says it finished. Names end in
// "-bn" when the app speaks Bengali.
class ScreenshotTour : public QObject {
    Q_OBJECT
public:
    static constexpr int kPatienceMs = 10 * 60 * 1000;

    ScreenshotTour(engine::EngineFacade& engine, ui::MainWindow& window, QString folder);
    void start();

Q_SIGNALS:
    // ok: every picture written with the demo alive; false: written after the patience ran out, or not at
    // all.
    void finished(bool ok);

private:
    bool demoAlive() const;
    bool shoot();
    bool save(QWidget& widget, const QString& name);

    engine::EngineFacade& engine_;
    ui::MainWindow& window_;
    QString folder_;
    QTimer poll_;
    QElapsedTimer clock_;
};

} // namespace sahaj::volunteer
