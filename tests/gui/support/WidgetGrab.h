#pragma once

#include <QImage>
#include <QSize>
#include <QString>

class QWidget;

namespace sahaj::testing {

// What a widget drew, for the GUI tests that check a panel renders, and the PNG files a person can ask for
// to look at: with the environment variable SAHAJ_GUI_GRAB_DIR naming a folder, the tests save their
// grabs there; without it nothing is written.
class WidgetGrab {
public:
    // Shows `widget` at `size` and grabs it once it is exposed and has handled its posted layout requests,
    // as in the window (charts lay out their axes only then). A null image when it was never exposed.
    static QImage ofShown(QWidget& widget, QSize size = {1000, 700});
    // How many of the pixels on every 4th row and column differ from the top-left one: a few hundred mean
    // text and shapes were drawn, zero one flat colour.
    static int pixelsUnlikeCorner(const QImage& image);

    // Whether SAHAJ_GUI_GRAB_DIR asks for the grabs.
    static bool requested();
    // Saves `image` there as `fileName` (a .png name); true when saved or when nobody asked for it.
    static bool saveIfRequested(const QImage& image, const QString& fileName);
};

} // namespace sahaj::testing
