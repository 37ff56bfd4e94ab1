#pragma once

#include <QList>
#include <QObject>
#include <QProcess>
#include <QString>
#include <QStringList>
#include <QTimer>

namespace sahaj::volunteer {

// The desktop demo's fill-mask at its end: `sahaj-node fill-mask` (node::DemoFillMask) on each model folder
// in turn, in a child process watched through its signals, so that the window stays responsive. Each run
// has a deadline; a run that fails, or does not answer in time, gets a plain reason instead of guesses.
class DemoFillMaskRun : public QObject {
    Q_OBJECT
public:
    // What one model put at the mask: its guesses, or why there are none (`problem` not empty).
    struct Prediction {
        QString guesses;
        QString problem;
    };

    static constexpr int kDeadlineMs = 60000;

    DemoFillMaskRun(QString nodeProgram, QString sentence, QStringList models, int deadlineMs = kDeadlineMs,
                    QObject* parent = nullptr);
    ~DemoFillMaskRun() override;

    // Runs the tool on the first model; finished() comes once every model answered or failed.
    void start();

Q_SIGNALS:
    // One prediction per model, in the order given.
    void finished(const QList<sahaj::volunteer::DemoFillMaskRun::Prediction>& predictions);

private:
    void next();
    void ended(Prediction prediction);

    QString nodeProgram_;
    QString sentence_;
    QStringList models_;
    QList<Prediction> predictions_;
    QProcess process_;
    QTimer deadline_;
    bool timedOut_ = false;
};

} // namespace sahaj::volunteer
