#include "ui/SystemReport.h"

#include "core/engine/EngineState.h"

#include <QCoreApplication>
#include <QStringList>
#include <QSysInfo>

namespace sahaj::ui {

QString SystemReport::of(const engine::EngineSnapshot& snapshot) {
    const auto orNone = [](const QString& text) { return text.isEmpty() ? QStringLiteral("none") : text; };
    QStringList lines;
    lines << QStringLiteral("Sahaj %1").arg(QCoreApplication::applicationVersion());
    lines << QStringLiteral("Qt %1 on %2 (%3, kernel %4)")
                 .arg(QString::fromLatin1(qVersion()), QSysInfo::prettyProductName(),
                      QSysInfo::currentCpuArchitecture(), QSysInfo::kernelVersion());
    QString state = engine::engineStateName(snapshot.state);
    if (snapshot.cause != engine::PauseCause::None)
        state += QStringLiteral(" (%1)").arg(engine::pauseCauseName(snapshot.cause));
    lines << QStringLiteral("state: %1").arg(state);
    if (!snapshot.detail.isEmpty())
        lines << QStringLiteral("detail: %1").arg(snapshot.detail);
    lines << QStringLiteral("run: %1, role: %2, peer: %3")
                 .arg(orNone(snapshot.runId), orNone(snapshot.role), orNone(snapshot.peerId));
    lines << QStringLiteral("device setting: %1, computing with: %2")
                 .arg(orNone(snapshot.device), orNone(snapshot.compute));
    lines << QStringLiteral("epoch: %1 (collaboration %2), peers online: %3 (clients %4)%5")
                 .arg(snapshot.localEpoch)
                 .arg(snapshot.globalEpoch)
                 .arg(snapshot.peersOnline)
                 .arg(snapshot.clientsOnline)
                 .arg(snapshot.collaborationLost ? QStringLiteral(", collaboration lost") : QString());
    return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

} // namespace sahaj::ui
