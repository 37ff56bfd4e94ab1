#include "core/security/FileChangeWatch.h"

#include <QFileInfo>

namespace sahaj::security {

FileChangeWatch::FileChangeWatch(QString path) : path_(std::move(path)) {
    changed();
}

bool FileChangeWatch::changed() {
    const QFileInfo info(path_);
    const QDateTime modified = info.lastModified();
    const qint64 size = info.exists() ? info.size() : -1;
    if (modified == modified_ && size == size_)
        return false;
    modified_ = modified;
    size_ = size;
    return true;
}

} // namespace sahaj::security
