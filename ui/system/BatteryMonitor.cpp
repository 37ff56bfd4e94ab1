#include "ui/system/BatteryMonitor.h"

#include <QDBusMessage>
#include <QDBusPendingCallWatcher>
#include <QDBusServiceWatcher>
#include <QDBusVariant>

namespace sahaj::ui {

namespace {

const QString kService = QStringLiteral("org.freedesktop.UPower");
const QString kPath = QStringLiteral("/org/freedesktop/UPower");
const QString kProperties = QStringLiteral("org.freedesktop.DBus.Properties");
const QString kProperty = QStringLiteral("OnBattery");

} // namespace

BatteryMonitor::BatteryMonitor(const QDBusConnection& bus, QObject* parent) : QObject(parent), bus_(bus) {
    if (!bus_.isConnected())
        return;
    bus_.connect(kService, kPath, kProperties, QStringLiteral("PropertiesChanged"), this,
                 SLOT(onPropertiesChanged(QString, QVariantMap, QStringList)));
    // UPower may start after the app or be restarted: ask again when it appears, forget when it leaves.
    upowerWatcher_ = new QDBusServiceWatcher(kService, bus_, QDBusServiceWatcher::WatchForOwnerChange, this);
    connect(upowerWatcher_, &QDBusServiceWatcher::serviceRegistered, this, &BatteryMonitor::refresh);
    connect(upowerWatcher_, &QDBusServiceWatcher::serviceUnregistered, this, [this] { set(std::nullopt); });
    refresh();
}

void BatteryMonitor::refresh() {
    if (!bus_.isConnected() || asking_)
        return;
    QDBusMessage get = QDBusMessage::createMethodCall(kService, kPath, kProperties, QStringLiteral("Get"));
    get << kService << kProperty;
    asking_ = true;
    auto* watcher = new QDBusPendingCallWatcher(bus_.asyncCall(get, kCallTimeoutMs), this);
    connect(watcher, &QDBusPendingCallWatcher::finished, this, [this](QDBusPendingCallWatcher* call) {
        call->deleteLater();
        asking_ = false;
        const QDBusMessage reply = call->reply();
        if (reply.type() != QDBusMessage::ReplyMessage || reply.arguments().isEmpty()) {
            set(std::nullopt);
            return;
        }
        // Properties.Get answers a variant; anything but a boolean inside it is not an answer.
        const QVariant value = qvariant_cast<QDBusVariant>(reply.arguments().constFirst()).variant();
        set(value.typeId() == QMetaType::Bool ? std::optional<bool>(value.toBool()) : std::nullopt);
    });
}

void BatteryMonitor::onPropertiesChanged(const QString& interface, const QVariantMap& changedProperties,
                                         const QStringList& invalidatedProperties) {
    if (interface != kService)
        return;
    if (const auto it = changedProperties.constFind(kProperty); it != changedProperties.constEnd())
        set(it->typeId() == QMetaType::Bool ? std::optional<bool>(it->toBool()) : std::nullopt);
    else if (invalidatedProperties.contains(kProperty))
        refresh();
}

void BatteryMonitor::set(std::optional<bool> value) {
    if (value == onBattery_)
        return;
    onBattery_ = value;
    Q_EMIT changed();
}

} // namespace sahaj::ui
