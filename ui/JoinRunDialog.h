#pragma once

#include "core/run/RunListing.h"

#include <QDialog>

#include <vector>

QT_BEGIN_NAMESPACE
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTreeWidget;
QT_END_NAMESPACE

namespace sahaj::engine {
struct VolunteerSettings;
}

namespace sahaj::ui {

class RunDirectoryLoader;

// "Join…": the run to join next. The volunteer pastes a join link (or a join file's URL), chooses a join
// file, or picks a run from the run directory set in the settings, where each run shows its description,
// organiser and size. A run picked from the directory is joined with the organiser key the directory gives
// pinned (organiserKey()); a link typed by hand trusts the key it names. Join stays refused, with the
// reason beside the field, while the link cannot be joined.
class JoinRunDialog : public QDialog {
    Q_OBJECT
public:
    JoinRunDialog(const engine::VolunteerSettings& settings, QWidget* parent = nullptr);
    ~JoinRunDialog() override;

    QString link() const;
    // The directory's organiser key for the run picked from it; empty when the link was typed or chosen.
    QString organiserKey() const;

    QTreeWidget* runList() const { return runs_; }
    QLabel* directoryStatus() const { return status_; }
    QLineEdit* linkEdit() const { return link_; }
    QPushButton* refreshButton() const { return refresh_; }

    void accept() override;

private:
    void refresh();
    void showRuns(const std::vector<run::RunListing>& runs);
    void pick();

    QString directoryUrl_;
    QString directoryKey_;
    std::vector<run::RunListing> listed_;
    QString pickedJoin_; // the join of the listing picked last, to tell a picked link from an edited one
    QString pickedKey_;
    RunDirectoryLoader* loader_ = nullptr;
    QLineEdit* link_ = nullptr;
    QLabel* problem_ = nullptr;
    QTreeWidget* runs_ = nullptr;
    QLabel* description_ = nullptr;
    QLabel* status_ = nullptr;
    QPushButton* refresh_ = nullptr;
    QDialogButtonBox* buttons_ = nullptr;
};

} // namespace sahaj::ui
