#include "ui/JoinRunDialog.h"

#include "core/engine/JoinRequest.h"
#include "core/engine/VolunteerSettings.h"
#include "ui/RunDirectoryLoader.h"
#include "ui/format/Figures.h"
#include "ui/widgets/ProblemLabel.h"
#include "ui/widgets/RunLinkField.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace sahaj::ui {

namespace {

enum Column { TitleColumn, OrganiserColumn, ModelColumn, DownloadColumn };

} // namespace

JoinRunDialog::JoinRunDialog(const engine::VolunteerSettings& settings, QWidget* parent)
    : QDialog(parent), directoryUrl_(settings.directoryUrl), directoryKey_(settings.directoryKey) {
    setWindowTitle(tr("Join a run"));
    auto* layout = new QVBoxLayout(this);

    auto* intro =
        new QLabel(tr("Paste the join link a run's organiser gave you (on the run's web page, or by "
                      "message), choose its join file, or pick a run from the run directory."),
                   this);
    intro->setWordWrap(true);
    layout->addWidget(intro);

    auto* form = new QFormLayout;
    auto* linkField = new RunLinkField(this);
    link_ = linkField->lineEdit();
    link_->setText(settings.runLink);
    linkField->addTo(form, tr("Join &link or file:"));
    layout->addLayout(form);
    problem_ = makeProblemLabel(this, QStringLiteral("runProblemLabel"), tr("What is wrong with the run"));
    layout->addWidget(problem_);
    if (!settings.runLink.isEmpty() && settings.runLink == link_->text()) {
        // The run in the settings stays pinned to the organiser it was picked with, until the link changes.
        pickedJoin_ = settings.runLink;
        pickedKey_ = settings.runOrganiser;
    }

    auto* directoryTitle = new QLabel(tr("Runs in the directory"), this);
    directoryTitle->setStyleSheet(QStringLiteral("font-weight: bold;"));
    layout->addWidget(directoryTitle);
    runs_ = new QTreeWidget(this);
    runs_->setObjectName(QStringLiteral("runList"));
    runs_->setRootIsDecorated(false);
    runs_->setHeaderLabels({tr("Run"), tr("Organiser"), tr("Model"), tr("Download")});
    runs_->header()->setSectionResizeMode(TitleColumn, QHeaderView::Stretch);
    runs_->setAccessibleName(tr("Runs in the directory"));
    layout->addWidget(runs_, 1);
    description_ = new QLabel(this);
    description_->setObjectName(QStringLiteral("runDescription"));
    description_->setTextFormat(Qt::PlainText);
    description_->setWordWrap(true);
    layout->addWidget(description_);

    auto* statusRow = new QHBoxLayout;
    status_ = new QLabel(this);
    status_->setObjectName(QStringLiteral("directoryStatus"));
    status_->setTextFormat(Qt::PlainText);
    status_->setWordWrap(true);
    statusRow->addWidget(status_, 1);
    refresh_ = new QPushButton(tr("&Refresh"), this);
    refresh_->setObjectName(QStringLiteral("refreshDirectoryButton"));
    statusRow->addWidget(refresh_);
    layout->addLayout(statusRow);

    buttons_ = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    buttons_->addButton(tr("&Join"), QDialogButtonBox::AcceptRole)
        ->setObjectName(QStringLiteral("joinButton"));
    layout->addWidget(buttons_);
    connect(buttons_, &QDialogButtonBox::accepted, this, &JoinRunDialog::accept);
    connect(buttons_, &QDialogButtonBox::rejected, this, &JoinRunDialog::reject);

    connect(runs_, &QTreeWidget::itemSelectionChanged, this, &JoinRunDialog::pick);
    connect(runs_, &QTreeWidget::itemActivated, this, &JoinRunDialog::accept);
    connect(link_, &QLineEdit::textEdited, problem_, &QLabel::hide);
    connect(refresh_, &QPushButton::clicked, this, &JoinRunDialog::refresh);

    loader_ = new RunDirectoryLoader(this);
    connect(loader_, &RunDirectoryLoader::loaded, this, &JoinRunDialog::showRuns);
    connect(loader_, &RunDirectoryLoader::failed, this, [this](const QString& reason) {
        status_->setText(tr("The run directory could not be loaded: %1").arg(reason));
        refresh_->setEnabled(true);
    });
    resize(640, 480);
    if (directoryUrl_.isEmpty()) {
        status_->setText(
            tr("No run directory is set. Organisers publish their run's link on the run's web "
               "page; a directory's address and key, from whoever keeps it, go in Settings ▸ Run."));
        refresh_->setEnabled(false);
        runs_->setEnabled(false);
    } else {
        refresh();
    }
}

JoinRunDialog::~JoinRunDialog() = default;

QString JoinRunDialog::link() const {
    return link_->text().trimmed();
}

QString JoinRunDialog::organiserKey() const {
    return link() == pickedJoin_ ? pickedKey_ : QString();
}

void JoinRunDialog::refresh() {
    status_->setText(tr("Loading the run directory from %1…").arg(directoryUrl_));
    refresh_->setEnabled(false);
    loader_->load(directoryUrl_, directoryKey_);
}

void JoinRunDialog::showRuns(const std::vector<run::RunListing>& runs) {
    listed_ = runs;
    runs_->clear();
    for (const run::RunListing& listing : listed_) {
        auto* item = new QTreeWidgetItem(runs_);
        item->setText(TitleColumn, listing.title);
        item->setText(OrganiserColumn, listing.organiser);
        item->setText(ModelColumn,
                      listing.parameters > 0
                          ? tr("%1 M parameters").arg(Figures::decimal(listing.parameters / 1e6, 1))
                          : tr("not given"));
        item->setText(DownloadColumn, Figures::bytes(double(listing.downloadBytes)));
        // Escaped: a tool tip that looks like markup is shown as rich text, and the keeper wrote this one.
        item->setToolTip(TitleColumn, QStringLiteral("<p>%1</p>")
                                          .arg(listing.description.toHtmlEscaped().replace(
                                              QLatin1Char('\n'), QStringLiteral("<br>"))));
    }
    status_->setText(runs.empty() ? tr("The run directory lists no run.")
                                  : tr("%n run(s) in the directory.", nullptr, int(runs.size())));
    refresh_->setEnabled(true);
}

void JoinRunDialog::pick() {
    const int row = runs_->indexOfTopLevelItem(runs_->currentItem());
    if (row < 0 || row >= int(listed_.size()))
        return;
    const run::RunListing& listing = listed_[std::size_t(row)];
    pickedJoin_ = listing.join;
    pickedKey_ = listing.organiserKey;
    link_->setText(listing.join);
    link_->setCursorPosition(0);
    problem_->hide();
    description_->setText(tr("%1 — by %2, whose key the directory gives: %3…")
                              .arg(listing.description, listing.organiser, listing.organiserKey.left(16)));
}

void JoinRunDialog::accept() {
    const QString problem = engine::JoinRequest::runProblem(link(), organiserKey());
    problem_->setText(problem);
    problem_->setVisible(!problem.isEmpty());
    if (problem.isEmpty())
        QDialog::accept();
}

} // namespace sahaj::ui
