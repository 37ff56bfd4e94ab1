#pragma once

#include <QByteArray>
#include <QCoreApplication>
#include <QString>

namespace sahaj::ui {

// "Start at login" on freedesktop desktops (GNOME, KDE Plasma, Xfce, ...): an XDG autostart entry,
// <config>/autostart/org.sahaj.Sahaj.desktop (<config> being $XDG_CONFIG_HOME, by default ~/.config), that
// starts the app minimised to the tray. The session reads the folder at login, so the entry is the whole
// mechanism: no daemon, nothing for the package to install. On other systems apply() refuses with a
// reason.
class AutostartEntry {
    Q_DECLARE_TR_FUNCTIONS(sahaj::ui::AutostartEntry)

public:
    static constexpr const char* kFileName = "org.sahaj.Sahaj.desktop";

    // Where the entry lives (whether or not it exists); empty when there is no configuration folder.
    static QString path();
    // The entry as apply(true) writes it.
    static QByteArray content();
    // Whether an entry exists that starts the app at login: present, and neither hidden (Hidden=true) nor
    // switched off (X-GNOME-Autostart-enabled=false), as a user may have edited it.
    static bool isEnabled();

    // Makes the entry match `enabled`: writes it, replacing whatever file was there (a user-edited one
    // too) in one atomic step so that a crash never leaves half a file, or removes it. Doing what is
    // already done succeeds. False when the folder or the file cannot be written or removed, with the
    // reason, in the user's language, in *error (when error is not null).
    static bool apply(bool enabled, QString* error);
};

} // namespace sahaj::ui
