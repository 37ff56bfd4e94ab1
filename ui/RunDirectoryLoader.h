#pragma once

#include "core/run/RunListing.h"

#include <QObject>
#include <QString>

#include <atomic>
#include <memory>
#include <vector>

QT_BEGIN_NAMESPACE
class QThread;
QT_END_NAMESPACE

namespace sahaj::ui {

// Downloads and verifies the run directory the settings name (fetch::RunDirectorySource) on a thread of its
// own, so that a slow server never freezes the window; the answer comes back as a signal in the thread that
// owns the loader. Destroying it cancels a download under way and waits for it (curl stops within a
// fraction of a second).
class RunDirectoryLoader : public QObject {
    Q_OBJECT
public:
    explicit RunDirectoryLoader(QObject* parent = nullptr);
    ~RunDirectoryLoader() override;

    // Starts a download; ignored while one is under way.
    void load(const QString& url, const QString& key);
    bool busy() const { return thread_ != nullptr; }

Q_SIGNALS:
    void loaded(const std::vector<sahaj::run::RunListing>& runs);
    void failed(const QString& reason);

private:
    void finish();

    QThread* thread_ = nullptr;
    std::atomic<bool> cancel_{false};
    // Written by the download thread before it ends, read after it has.
    std::vector<run::RunListing> runs_;
    QString problem_;
};

} // namespace sahaj::ui
