#include "core/eval/DataFileError.h"

namespace sahaj::eval {

DataFileError::DataFileError(const QString& path, const QString& problem)
    : std::runtime_error(QStringLiteral("%1: %2").arg(path, problem).toStdString()) {}

DataFileError::DataFileError(const QString& path, qint64 line, const QString& problem)
    : std::runtime_error(QStringLiteral("%1:%2: %3").arg(path).arg(line).arg(problem).toStdString()) {}

} // namespace sahaj::eval
