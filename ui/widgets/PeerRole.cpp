#include "ui/widgets/PeerRole.h"

namespace sahaj::ui {

QStringList PeerRole::known() {
    return {QStringLiteral("node"), QStringLiteral("client"), QStringLiteral("auxiliary"),
            QStringLiteral("coordinator")};
}

QString PeerRole::name(const QString& role) {
    if (role == QLatin1String("node"))
        return tr("node");
    if (role == QLatin1String("client"))
        return tr("client");
    if (role == QLatin1String("auxiliary"))
        return tr("auxiliary");
    if (role == QLatin1String("coordinator"))
        return tr("coordinator");
    return tr("other");
}

QColor PeerRole::colour(const QString& role) {
    // Distinct for the common forms of colour blindness (the Okabe-Ito palette).
    if (role == QLatin1String("node"))
        return QColor(0x00, 0x72, 0xb2);
    if (role == QLatin1String("client"))
        return QColor(0x00, 0x9e, 0x73);
    if (role == QLatin1String("auxiliary"))
        return QColor(0xe6, 0x9f, 0x00);
    if (role == QLatin1String("coordinator"))
        return QColor(0xcc, 0x79, 0xa7);
    return QColor(0x88, 0x88, 0x88);
}

} // namespace sahaj::ui
