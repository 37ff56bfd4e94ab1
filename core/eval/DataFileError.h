#pragma once

#include <QString>

#include <stdexcept>

namespace sahaj::eval {

// A problem in a task data file, worded "PATH:LINE: problem" (or "PATH: problem" for the file as a
// whole) so that a user can open the file at the right place. A std::runtime_error, so callers that
// report any runtime failure need not know this type.
class DataFileError : public std::runtime_error {
public:
    DataFileError(const QString& path, const QString& problem);
    DataFileError(const QString& path, qint64 line, const QString& problem);
};

} // namespace sahaj::eval
