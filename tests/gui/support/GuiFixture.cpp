#include "GuiFixture.h"

#include <QDateTime>
#include <QFile>
#include <QStandardPaths>

#include <algorithm>

namespace sahaj::testing {

qint64 nowMs() {
    return QDateTime::currentMSecsSinceEpoch();
}

GuiFixture::GuiFixture() {
    QStandardPaths::setTestModeEnabled(true);
}

GuiFixture::GuiFixture(EngineState state) : GuiFixture() {
    EngineSnapshot snapshot = busySnapshot(nowMs());
    snapshot.state = state;
    engine->show(snapshot);
}

GuiFixture::GuiFixture(const EngineSnapshot& snapshot) : GuiFixture() {
    engine->show(snapshot);
}

AppController& GuiFixture::startController() {
    controller.reset();
    auto owned = std::make_unique<TestSensors>();
    sensors = owned.get();
    controller = std::make_unique<AppController>(*engine, settingsPath, std::move(owned));
    return *controller;
}

QByteArray GuiFixture::savedSettingsBytes() const {
    QFile file(settingsPath);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

QString GuiFixture::lastCall() const {
    return engine->calls.isEmpty() ? QString() : engine->calls.last();
}

bool GuiFixture::joined() const {
    return std::any_of(engine->calls.begin(), engine->calls.end(),
                       [](const QString& call) { return call.startsWith(QStringLiteral("join:")); });
}

} // namespace sahaj::testing
