#include "core/eval/TextFileLines.h"

#include "core/eval/DataFileError.h"

#include <QFile>
#include <QFileInfo>
#include <QStringDecoder>

namespace sahaj::eval {

QStringList TextFileLines::read(const QString& path) {
    const QFileInfo info(path);
    if (!info.exists())
        throw DataFileError(path, QStringLiteral("no such file"));
    if (info.isDir())
        throw DataFileError(path, QStringLiteral("is a folder, expected a file"));
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        throw DataFileError(path, QStringLiteral("cannot open: %1").arg(file.errorString()));

    QStringList lines;
    while (!file.atEnd()) {
        QByteArray bytes = file.readLine();
        if (bytes.isEmpty() && file.error() != QFileDevice::NoError)
            break;
        if (lines.isEmpty() && bytes.startsWith("\xEF\xBB\xBF"))
            bytes.remove(0, 3);
        if (bytes.endsWith('\n'))
            bytes.chop(1);
        if (bytes.endsWith('\r'))
            bytes.chop(1);
        QStringDecoder decoder(QStringDecoder::Utf8, QStringDecoder::Flag::Stateless);
        QString line = decoder.decode(bytes);
        if (decoder.hasError())
            throw DataFileError(path, lines.size() + 1, QStringLiteral("not valid UTF-8"));
        lines.push_back(std::move(line));
    }
    if (file.error() != QFileDevice::NoError)
        throw DataFileError(path, QStringLiteral("read error: %1").arg(file.errorString()));
    return lines;
}

} // namespace sahaj::eval
