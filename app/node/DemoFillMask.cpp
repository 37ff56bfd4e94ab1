#include "app/node/DemoFillMask.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QStringList>

namespace sahaj::node {

namespace {

constexpr int kFewestWords = 5;
constexpr int kMostWords = 12;
constexpr int kMaskedWord = 2;
constexpr int kLinesLookedAt = 10000;

} // namespace

QString DemoFillMask::sentence(const QString& corpus, QString* masked) {
    QFile file(corpus);
    if (!file.open(QIODevice::ReadOnly | QIODevice::Text))
        return {};
    static const QRegularExpression spaces(QStringLiteral("\\s+"));
    for (int i = 0; i < kLinesLookedAt && !file.atEnd(); ++i) {
        QStringList words = QString::fromUtf8(file.readLine()).trimmed().split(spaces, Qt::SkipEmptyParts);
        if (words.size() < kFewestWords || words.size() > kMostWords)
            continue;
        if (masked)
            *masked = words[kMaskedWord];
        words[kMaskedWord] = QStringLiteral("[MASK]");
        return words.join(QLatin1Char(' '));
    }
    return {};
}

QStringList DemoFillMask::arguments(const QString& modelDir, const QString& sentence) {
    return {QStringLiteral("fill-mask"), QStringLiteral("--checkpoint"), modelDir, QStringLiteral("--top"),
            QStringLiteral("3"),         QStringLiteral("--json"),       sentence};
}

QString DemoFillMask::guesses(const QByteArray& json) {
    const QJsonObject result = QJsonDocument::fromJson(json).object();
    const QJsonArray masks = result[QStringLiteral("masks")].toArray();
    if (masks.isEmpty())
        return {};
    QStringList guesses;
    for (const QJsonValue candidate : masks.first()[QStringLiteral("predictions")].toArray())
        // A token the tokenizer does not know (the model's vocabulary is larger) has no text: its id.
        guesses << QStringLiteral("%1 %2")
                       .arg(candidate[QStringLiteral("token_str")].toString().isEmpty()
                                ? QStringLiteral("[id %1]").arg(
                                      candidate[QStringLiteral("token_id")].toInteger())
                                : candidate[QStringLiteral("token_str")].toString())
                       .arg(candidate[QStringLiteral("score")].toDouble(), 0, 'f', 3);
    return guesses.join(QStringLiteral(", "));
}

QString DemoFillMask::predict(const QString& nodeProgram, const QString& modelDir, const QString& sentence) {
    QProcess tool;
    tool.start(nodeProgram, arguments(modelDir, sentence));
    if (!tool.waitForFinished(kToolTimeoutMs) || tool.exitStatus() != QProcess::NormalExit ||
        tool.exitCode() != 0) {
        tool.kill();
        return QStringLiteral("(fill-mask failed: %1)")
            .arg(QString::fromUtf8(tool.readAllStandardError()).trimmed().left(300));
    }
    const QString words = guesses(tool.readAllStandardOutput());
    return words.isEmpty() ? QStringLiteral("(fill-mask printed no prediction)") : words;
}

} // namespace sahaj::node
