#include "ui/RunDirectoryLoader.h"

#include "core/fetch/RunDirectorySource.h"

#include <QThread>

#include <exception>

namespace sahaj::ui {

RunDirectoryLoader::RunDirectoryLoader(QObject* parent) : QObject(parent) {}

RunDirectoryLoader::~RunDirectoryLoader() {
    if (thread_) {
        cancel_ = true;
        thread_->wait();
        delete thread_;
    }
}

void RunDirectoryLoader::load(const QString& url, const QString& key) {
    if (thread_)
        return;
    cancel_ = false;
    runs_.clear();
    problem_.clear();
    thread_ = QThread::create([this, url, key] {
        try {
            runs_ = fetch::RunDirectorySource::read(url, key, {}, &cancel_).runs();
        } catch (const std::exception& e) {
            problem_ = QString::fromUtf8(e.what());
        }
    });
    connect(thread_, &QThread::finished, this, &RunDirectoryLoader::finish);
    thread_->start();
}

void RunDirectoryLoader::finish() {
    thread_->wait();
    thread_->deleteLater();
    thread_ = nullptr;
    if (problem_.isEmpty())
        Q_EMIT loaded(runs_);
    else
        Q_EMIT failed(problem_);
}

} // namespace sahaj::ui
