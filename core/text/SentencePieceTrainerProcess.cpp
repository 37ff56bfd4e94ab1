#include "core/text/SentencePieceTrainerProcess.h"

#include <QProcess>
#include <QStandardPaths>

#include <stdexcept>

namespace sahaj::text {

SentencePieceTrainerProcess::Result SentencePieceTrainerProcess::run(const QStringList& arguments) {
    const QString program = QStandardPaths::findExecutable(QStringLiteral("spm_train"));
    if (program.isEmpty())
        throw std::runtime_error(
            "spm_train (sentencepiece's trainer) was not found on PATH: install the Debian "
            "package 'sentencepiece' (scripts/setup.sh does)");
    QProcess process;
    process.setProcessChannelMode(QProcess::MergedChannels);
    process.start(program, arguments);
    if (!process.waitForStarted())
        throw std::runtime_error("cannot start " + program.toStdString() + ": " +
                                 process.errorString().toStdString());
    process.waitForFinished(-1);
    const QString output = QString::fromUtf8(process.readAll());
    if (process.exitStatus() == QProcess::NormalExit && process.exitCode() == 0)
        return {true, {}};
    // sentencepiece reports a failed check on its last lines; the rest is progress logging.
    QStringList lines = output.split('\n', Qt::SkipEmptyParts);
    const qsizetype keep = std::min<qsizetype>(lines.size(), 3);
    QString message = lines.mid(lines.size() - keep).join(QStringLiteral(" / ")).trimmed();
    if (process.exitStatus() != QProcess::NormalExit)
        message = QStringLiteral("spm_train crashed: ") + message;
    return {false, message.isEmpty()
                       ? QStringLiteral("spm_train exited with status %1").arg(process.exitCode())
                       : message};
}

} // namespace sahaj::text
