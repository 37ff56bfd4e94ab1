#pragma once

#include <QWidget>

QT_BEGIN_NAMESPACE
class QFormLayout;
class QLineEdit;
class QPushButton;
QT_END_NAMESPACE

namespace sahaj::ui {

// A path typed or chosen: a line edit with a button beside it that opens a file (or folder) dialog and puts
// the choice in the edit. Its texts come translated from the form that shows it, so that each form keeps
// its own wording.
class PathField : public QWidget {
    Q_OBJECT
public:
    enum class Kind { File, Folder };

    // `buttonText` labels the button and `buttonName` is its accessible name; the dialog has the title
    // `dialogTitle` and, for a file, the name filter `filter` (empty: any file).
    PathField(Kind kind, const QString& buttonText, const QString& buttonName, const QString& dialogTitle,
              const QString& filter, QWidget* parent = nullptr);

    QLineEdit* lineEdit() const { return edit_; }
    QPushButton* button() const { return button_; }

    // Adds the field to `form` as a row captioned `label`, whose mnemonic moves the focus to the edit.
    void addTo(QFormLayout* form, const QString& label);

private:
    void choose();

    Kind kind_;
    QString dialogTitle_;
    QString filter_;
    QLineEdit* edit_ = nullptr;
    QPushButton* button_ = nullptr;
};

} // namespace sahaj::ui
