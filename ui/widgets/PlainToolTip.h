#pragma once

#include <QPointF>
#include <QString>

#include <functional>

QT_BEGIN_NAMESPACE
class QEvent;
class QWidget;
QT_END_NAMESPACE

namespace sahaj::ui {

// Tooltips for widgets that draw several things and tell which one is under the pointer (the map's peers,
// the round bars' segments). The hover text is plain text: shown unwrapped, one fact a line, and nothing in
// it read as markup, since it carries what other peers' records say.
class PlainToolTip {
public:
    // The hover text at a position in the widget, empty where there is nothing to tell.
    using TextAt = std::function<QString(QPointF)>;

    // True when `event` asked `widget` for a tooltip and is now answered: the text at the pointer, or no
    // tooltip at all where there is none. False for any other event, which the widget handles itself.
    static bool answer(QWidget* widget, QEvent* event, const TextAt& textAt);
};

} // namespace sahaj::ui
