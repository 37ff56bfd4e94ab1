#pragma once

#include <QString>

#include <stdexcept>

struct sqlite3;

namespace sahaj::store {

// A failure of SQLite on one database file. The message names the file, what was being done and
// SQLite's own explanation; code() is SQLite's extended result code (SQLITE_BUSY when another process
// held the database longer than the busy timeout, SQLITE_FULL on a full disk, ...), 0 when the refusal
// is ours (a file that is not an SQLite database, a schema from a newer version).
class SqliteError : public std::runtime_error {
public:
    SqliteError(const QString& message, int code);

    int code() const { return code_; }

private:
    int code_;
};

// Throws SqliteError "`file`: `action`: <sqlite3_errmsg>" for the last failure on `database`.
[[noreturn]] void throwSqliteError(sqlite3* database, const QString& file, const QString& action);
// The same, naming the file as SQLite resolved it.
[[noreturn]] void throwSqliteError(sqlite3* database, const QString& action);

} // namespace sahaj::store
