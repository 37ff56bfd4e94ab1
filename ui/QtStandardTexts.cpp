// Texts Qt itself shows in Sahaj's dialogs (the standard buttons of QDialogButtonBox and QWizard's
// navigation), listed here so that lupdate puts them into Sahaj's own translations under the contexts Qt
// looks them up in at run time: Qt ships no Bengali translation of its own. Nothing calls this code.
#include <QtGlobal>

namespace sahaj::ui {

namespace {

[[maybe_unused]] const char* const kQtTexts[] = {
    QT_TRANSLATE_NOOP("QPlatformTheme", "OK"),
    QT_TRANSLATE_NOOP("QPlatformTheme", "Cancel"),
    QT_TRANSLATE_NOOP("QPlatformTheme", "Apply"),
    QT_TRANSLATE_NOOP("QPlatformTheme", "Close"),
    QT_TRANSLATE_NOOP("QPlatformTheme", "Help"),
    QT_TRANSLATE_NOOP("QPlatformTheme", "Reset"),
    QT_TRANSLATE_NOOP("QPlatformTheme", "Restore Defaults"),
    QT_TRANSLATE_NOOP("QPlatformTheme", "&Yes"),
    QT_TRANSLATE_NOOP("QPlatformTheme", "&No"),
    QT_TRANSLATE_NOOP("QWizard", "< &Back"),
    QT_TRANSLATE_NOOP("QWizard", "&Next >"),
    QT_TRANSLATE_NOOP("QWizard", "&Finish"),
    QT_TRANSLATE_NOOP("QWizard", "Cancel"),
    QT_TRANSLATE_NOOP("QWizard", "&Help"),
    QT_TRANSLATE_NOOP("QWizard", "Commit"),
};

} // namespace

} // namespace sahaj::ui
