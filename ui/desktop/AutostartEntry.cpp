#include "ui/desktop/AutostartEntry.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>
#include <QStandardPaths>

namespace sahaj::ui {

namespace {

bool refuse(QString* error, const QString& reason) {
    if (error)
        *error = reason;
    return false;
}

QString shown(const QString& path) {
    return QDir::toNativeSeparators(path);
}

} // namespace

QString AutostartEntry::path() {
    const QString config = QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation);
    if (config.isEmpty())
        return {};
    return QDir(config).filePath(QStringLiteral("autostart/") + QLatin1String(kFileName));
}

QByteArray AutostartEntry::content() {
    // The same name and icon as the menu entry; --minimized starts in the tray without opening the window.
    // TryExec: once the app is uninstalled the session skips this entry instead of failing on it.
    // X-KDE-autostart-after: Plasma starts the app once its panel (and tray) is there.
    return QByteArrayLiteral("[Desktop Entry]\n"
                             "Type=Application\n"
                             "Name=Sahaj\n"
                             "Name[bn]=সহজ\n"
                             "Comment=Train a Bengali language model together with other volunteers\n"
                             "Exec=sahaj-volunteer --minimized\n"
                             "TryExec=sahaj-volunteer\n"
                             "Icon=org.sahaj.Sahaj\n"
                             "Terminal=false\n"
                             "X-GNOME-Autostart-enabled=true\n"
                             "X-KDE-autostart-after=panel\n");
}

bool AutostartEntry::isEnabled() {
    const QString file = path();
    QFile entry(file);
    if (file.isEmpty() || !entry.open(QIODevice::ReadOnly | QIODevice::Text))
        return false;
    bool inMainGroup = false;
    while (!entry.atEnd()) {
        const QByteArray line = entry.readLine().trimmed();
        if (line.startsWith('[')) {
            inMainGroup = line == "[Desktop Entry]";
            continue;
        }
        if (!inMainGroup)
            continue;
        const qsizetype equals = line.indexOf('=');
        if (equals < 0)
            continue;
        const QByteArray key = line.left(equals).trimmed();
        const QByteArray value = line.mid(equals + 1).trimmed();
        if ((key == "Hidden" && value == "true") || (key == "X-GNOME-Autostart-enabled" && value == "false"))
            return false;
    }
    return true;
}

bool AutostartEntry::apply(bool enabled, QString* error) {
#if defined(Q_OS_UNIX) && !defined(Q_OS_MACOS)
    const QString file = path();
    if (file.isEmpty())
        return refuse(error,
                      tr("Sahaj cannot start at login: there is no folder for settings (is HOME set?)."));
    if (!enabled) {
        const QFileInfo info(file);
        if (!info.exists() && !info.isSymLink())
            return true;
        QFile entry(file);
        if (!entry.remove())
            return refuse(error, tr("Cannot remove %1, so Sahaj would still start at login: %2")
                                     .arg(shown(file), entry.errorString()));
        return true;
    }
    const QString folder = QFileInfo(file).absolutePath();
    if (!QDir().mkpath(folder))
        return refuse(error,
                      tr("Cannot create the folder %1 for starting Sahaj at login.").arg(shown(folder)));
    const QByteArray bytes = content();
    QSaveFile entry(file);
    if (!entry.open(QIODevice::WriteOnly) || entry.write(bytes) != bytes.size() || !entry.commit())
        return refuse(
            error,
            tr("Cannot write %1 for starting Sahaj at login: %2").arg(shown(file), entry.errorString()));
    return true;
#else
    Q_UNUSED(enabled)
    return refuse(error, tr("Starting Sahaj at login is not available on this system yet."));
#endif
}

} // namespace sahaj::ui
