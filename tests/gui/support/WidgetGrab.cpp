#include "WidgetGrab.h"

#include <QCoreApplication>
#include <QDir>
#include <QTest>
#include <QWidget>

namespace sahaj::testing {

namespace {

QString grabFolder() {
    return qEnvironmentVariable("SAHAJ_GUI_GRAB_DIR");
}

} // namespace

QImage WidgetGrab::ofShown(QWidget& widget, QSize size) {
    widget.resize(size);
    widget.show();
    if (!QTest::qWaitForWindowExposed(&widget))
        return {};
    QCoreApplication::processEvents();
    return widget.grab().toImage();
}

int WidgetGrab::pixelsUnlikeCorner(const QImage& image) {
    if (image.isNull())
        return 0;
    const QRgb corner = image.pixel(0, 0);
    int differing = 0;
    for (int y = 0; y < image.height(); y += 4) {
        for (int x = 0; x < image.width(); x += 4)
            differing += image.pixel(x, y) != corner;
    }
    return differing;
}

bool WidgetGrab::requested() {
    return !grabFolder().isEmpty();
}

bool WidgetGrab::saveIfRequested(const QImage& image, const QString& fileName) {
    const QString folder = grabFolder();
    return folder.isEmpty() || image.save(QDir(folder).filePath(fileName));
}

} // namespace sahaj::testing
