#pragma once

#include <QStringList>

namespace sahaj::eval {

// The lines of a UTF-8 task data file, decoded the same way for every reader: a leading byte-order mark
// dropped, LF or CRLF endings removed, no extra empty line after a final line break. Line N of the file
// is element N-1, so readers can name lines in their errors.
class TextFileLines {
public:
    // Throws DataFileError for a missing, unreadable or folder path, and "PATH:LINE: not valid UTF-8"
    // (the data would otherwise train on replacement characters without anyone noticing).
    static QStringList read(const QString& path);
};

} // namespace sahaj::eval
