#include "ui/widgets/RunLinkField.h"

#include <QLineEdit>

namespace sahaj::ui {

RunLinkField::RunLinkField(QWidget* parent)
    : PathField(PathField::Kind::File, tr("Choose &file…"), tr("Choose a join file"), tr("Join file"),
                tr("Join files (*.join *.json);;All files (*)"), parent) {
    lineEdit()->setObjectName(QStringLiteral("runLinkEdit"));
    lineEdit()->setPlaceholderText(tr("sahaj:join/…, https://… or a join file"));
}

} // namespace sahaj::ui
