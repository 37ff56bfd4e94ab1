#include "app/volunteer/DemoFillMaskRun.h"

#include "app/node/DemoFillMask.h"

namespace sahaj::volunteer {

DemoFillMaskRun::DemoFillMaskRun(QString nodeProgram, QString sentence, QStringList models, int deadlineMs,
                                 QObject* parent)
    : QObject(parent), nodeProgram_(std::move(nodeProgram)), sentence_(std::move(sentence)),
      models_(std::move(models)) {
    deadline_.setSingleShot(true);
    deadline_.setInterval(deadlineMs);
    connect(&deadline_, &QTimer::timeout, this, [this] {
        timedOut_ = true;
        process_.kill(); // finished() follows
    });
    connect(&process_, &QProcess::errorOccurred, this, [this](QProcess::ProcessError error) {
        if (error != QProcess::FailedToStart)
            return; // a crash or an exit with an error also ends the process: finished() says it
        deadline_.stop();
        ended({{}, tr("%1 could not be run").arg(nodeProgram_)});
    });
    connect(&process_, &QProcess::finished, this, [this](int exitCode, QProcess::ExitStatus status) {
        deadline_.stop();
        if (timedOut_) {
            ended({{}, tr("no answer within %1 s").arg(deadline_.interval() / 1000)});
            return;
        }
        if (status != QProcess::NormalExit || exitCode != 0) {
            const QStringList said = QString::fromUtf8(process_.readAllStandardError())
                                         .trimmed()
                                         .split(QLatin1Char('\n'), Qt::SkipEmptyParts);
            ended({{}, said.isEmpty() ? tr("the model could not be read") : said.last().left(300)});
            return;
        }
        const QString guesses = node::DemoFillMask::guesses(process_.readAllStandardOutput());
        ended(guesses.isEmpty() ? Prediction{{}, tr("it printed none")} : Prediction{guesses, {}});
    });
}

DemoFillMaskRun::~DemoFillMaskRun() {
    process_.disconnect(this);
    if (process_.state() != QProcess::NotRunning) {
        process_.kill();
        process_.waitForFinished(5000);
    }
}

void DemoFillMaskRun::start() {
    predictions_.clear();
    next();
}

void DemoFillMaskRun::next() {
    if (predictions_.size() == models_.size()) {
        Q_EMIT finished(predictions_);
        return;
    }
    timedOut_ = false;
    deadline_.start();
    process_.start(nodeProgram_, node::DemoFillMask::arguments(models_[predictions_.size()], sentence_));
}

void DemoFillMaskRun::ended(Prediction prediction) {
    predictions_.append(std::move(prediction));
    // Queued: the process that ended is still inside its signal.
    QMetaObject::invokeMethod(this, &DemoFillMaskRun::next, Qt::QueuedConnection);
}

} // namespace sahaj::volunteer
