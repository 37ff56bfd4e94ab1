#pragma once

#include <QColor>
#include <QCoreApplication>
#include <QString>
#include <QStringList>

namespace sahaj::ui {

// How the panels word and colour a peer's role ("node", "client", "auxiliary", "coordinator"), so that
// the map, its legend, the peer list and the round bars agree. Roles come from other peers' records:
// an unknown one is shown as "other", never as the text it came with.
class PeerRole {
    Q_DECLARE_TR_FUNCTIONS(sahaj::ui::PeerRole)

public:
    static QStringList known();
    static QString name(const QString& role);  // translated; "other" for an unknown role
    static QColor colour(const QString& role); // grey for an unknown role
};

} // namespace sahaj::ui
