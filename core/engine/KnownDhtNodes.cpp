#include "core/engine/KnownDhtNodes.h"

#include "core/dht/HostPort.h"

#include <QDir>
#include <QFile>
#include <QSaveFile>

#include <stdexcept>

namespace sahaj::engine {

QString KnownDhtNodes::pathIn(const QString& stateDir) {
    return QDir(stateDir).filePath(QStringLiteral("dht-nodes.txt"));
}

QStringList KnownDhtNodes::load(const QString& stateDir) {
    QFile file(pathIn(stateDir));
    QStringList addresses;
    // A few KiB at most; a larger file is not one this program wrote.
    if (file.size() > 64 * 1024 || !file.open(QIODevice::ReadOnly))
        return addresses;
    for (const QByteArray& line : file.readAll().split('\n')) {
        const QString address = QString::fromUtf8(line).trimmed();
        if (address.isEmpty() || addresses.size() >= kMaxNodes)
            continue;
        try {
            dht::HostPort::parse(address);
            addresses << address;
        } catch (const std::invalid_argument&) {
            // a damaged line: the others still help
        }
    }
    return addresses;
}

QString KnownDhtNodes::save(const QString& stateDir, const std::vector<QString>& addresses) {
    QSaveFile file(pathIn(stateDir));
    if (!file.open(QIODevice::WriteOnly))
        return file.errorString();
    int written = 0;
    for (const QString& address : addresses) {
        if (written++ >= kMaxNodes)
            break;
        file.write(address.toUtf8() + '\n');
    }
    if (!file.commit())
        return file.errorString();
    return {};
}

} // namespace sahaj::engine
