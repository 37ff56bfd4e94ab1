#pragma once

#include <QDateTime>
#include <QString>

namespace sahaj::security {

// Whether a file an organiser edits by hand while the run goes on (the allowlist, the revocations) changed
// since it was last read: its size or modification time differ. Cheap enough to ask at every request, so
// an edit takes effect without a restart.
class FileChangeWatch {
public:
    // Takes the file's state now as read.
    explicit FileChangeWatch(QString path);

    const QString& path() const { return path_; }
    // True once for each change (and takes the new state as read); false while the file stays as it was.
    bool changed();

private:
    QString path_;
    QDateTime modified_;
    qint64 size_ = -1;
};

} // namespace sahaj::security
