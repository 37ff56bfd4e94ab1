// Renders an SVG file into a square image with Qt Svg: the packages ship the app icon as a 256x256 PNG
// for desktops and launchers that do not read SVG (and as a .ico for the Windows installer), rendered at
// build time from the one SVG source so that they never drift apart.
// Usage: sahaj-svg-to-png INPUT.svg OUTPUT.png|OUTPUT.ico SIZE (the format follows the file's suffix)
#include <QGuiApplication>
#include <QImage>
#include <QPainter>
#include <QSvgRenderer>

#include <cstdio>

int main(int argc, char** argv) {
    // No display at build time: the offscreen platform is enough for rendering into an image.
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QGuiApplication app(argc, argv);
    const QStringList arguments = QGuiApplication::arguments();
    bool sizeOk = false;
    const int size = arguments.size() == 4 ? arguments[3].toInt(&sizeOk) : 0;
    if (!sizeOk || size < 1 || size > 256) {
        std::fprintf(stderr, "usage: sahaj-svg-to-png INPUT.svg OUTPUT.png|OUTPUT.ico SIZE (1 to 256)\n");
        return 2;
    }
    QSvgRenderer renderer(arguments[1]);
    if (!renderer.isValid()) {
        std::fprintf(stderr, "sahaj-svg-to-png: %s is not a valid SVG file\n", qPrintable(arguments[1]));
        return 1;
    }
    QImage image(size, size, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::transparent);
    {
        QPainter painter(&image);
        painter.setRenderHint(QPainter::Antialiasing);
        renderer.render(&painter, QRectF(0, 0, size, size));
    }
    if (!image.save(arguments[2])) {
        std::fprintf(stderr, "sahaj-svg-to-png: cannot write %s\n", qPrintable(arguments[2]));
        return 1;
    }
    return 0;
}
