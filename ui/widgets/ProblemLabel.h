#pragma once

#include <QString>

QT_BEGIN_NAMESPACE
class QLabel;
class QWidget;
QT_END_NAMESPACE

namespace sahaj::ui {

// A hidden, word-wrapped label in the colour of an error, for what is wrong with an input: plain text, since
// what it shows often quotes what the user (or a server) typed.
QLabel* makeProblemLabel(QWidget* parent, const QString& objectName, const QString& accessibleName);

} // namespace sahaj::ui
