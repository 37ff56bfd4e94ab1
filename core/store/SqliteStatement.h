#pragma once

#include <QString>

struct sqlite3;
struct sqlite3_stmt;

namespace sahaj::store {

// One prepared statement, finalized when the object goes. SqliteDatabase::prepare() makes them; a
// statement must not outlive its database, and belongs to the thread that owns that database.
//
// Parameters are numbered from 1 and columns from 0, as in SQLite. Every failure throws SqliteError (a
// std::runtime_error) naming the database file and SQLite's message.
class SqliteStatement {
public:
    SqliteStatement(sqlite3* database, const char* sql);
    ~SqliteStatement();
    SqliteStatement(SqliteStatement&& other) noexcept;
    SqliteStatement& operator=(SqliteStatement&& other) noexcept;
    SqliteStatement(const SqliteStatement&) = delete;
    SqliteStatement& operator=(const SqliteStatement&) = delete;

    SqliteStatement& bindInt64(int index, qint64 value);
    SqliteStatement& bindDouble(int index, double value);
    SqliteStatement& bindText(int index, const QString& text);

    // Advances to the next row: true when there is one, false when the statement has finished.
    bool step();
    // Runs a statement that returns no rows (INSERT, UPDATE, DELETE) to its end.
    void run();
    // Makes the statement ready to run again; bound parameters keep their values.
    void reset();

    qint64 columnInt64(int column) const;
    double columnDouble(int column) const;
    QString columnText(int column) const;
    bool columnIsNull(int column) const;

private:
    [[noreturn]] void fail(const char* action) const;

    sqlite3* database_ = nullptr;
    sqlite3_stmt* statement_ = nullptr;
};

} // namespace sahaj::store
