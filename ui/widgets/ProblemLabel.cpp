#include "ui/widgets/ProblemLabel.h"

#include <QLabel>

namespace sahaj::ui {

QLabel* makeProblemLabel(QWidget* parent, const QString& objectName, const QString& accessibleName) {
    auto* label = new QLabel(parent);
    label->setObjectName(objectName);
    label->setAccessibleName(accessibleName);
    label->setTextFormat(Qt::PlainText);
    label->setWordWrap(true);
    label->setStyleSheet(QStringLiteral("color: #b71c1c;"));
    label->hide();
    return label;
}

} // namespace sahaj::ui
