#include "core/store/SqliteError.h"

#include <sqlite3.h>

namespace sahaj::store {

SqliteError::SqliteError(const QString& message, int code)
    : std::runtime_error(message.toStdString()), code_(code) {}

void throwSqliteError(sqlite3* database, const QString& file, const QString& action) {
    throw SqliteError(
        QStringLiteral("%1: %2: %3").arg(file, action, QString::fromUtf8(sqlite3_errmsg(database))),
        sqlite3_extended_errcode(database));
}

void throwSqliteError(sqlite3* database, const QString& action) {
    const char* file = sqlite3_db_filename(database, "main");
    throwSqliteError(database, QString::fromUtf8(file ? file : ""), action);
}

} // namespace sahaj::store
