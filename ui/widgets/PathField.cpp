#include "ui/widgets/PathField.h"

#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>

namespace sahaj::ui {

PathField::PathField(Kind kind, const QString& buttonText, const QString& buttonName,
                     const QString& dialogTitle, const QString& filter, QWidget* parent)
    : QWidget(parent), kind_(kind), dialogTitle_(dialogTitle), filter_(filter) {
    edit_ = new QLineEdit(this);
    button_ = new QPushButton(buttonText, this);
    button_->setAccessibleName(buttonName);
    connect(button_, &QPushButton::clicked, this, &PathField::choose);

    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(edit_, 1);
    layout->addWidget(button_);
}

void PathField::addTo(QFormLayout* form, const QString& label) {
    form->addRow(label, this);
    // The row's label would give the focus to this container, which takes none: the edit should have it.
    if (auto* caption = qobject_cast<QLabel*>(form->labelForField(this)))
        caption->setBuddy(edit_);
}

void PathField::choose() {
    const QString path = kind_ == Kind::Folder
                             ? QFileDialog::getExistingDirectory(this, dialogTitle_, edit_->text())
                             : QFileDialog::getOpenFileName(this, dialogTitle_, QString(), filter_);
    if (!path.isEmpty())
        edit_->setText(path);
}

} // namespace sahaj::ui
