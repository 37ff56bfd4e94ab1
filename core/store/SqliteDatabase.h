#pragma once

#include "core/store/SqliteStatement.h"

#include <QString>
#include <QStringList>

#include <span>

struct sqlite3;

namespace sahaj::store {

// Owns one connection to an SQLite database file, set up for a store that must survive a crash:
//  - WAL journal mode: a commit appends to the write-ahead log, so a process killed at any moment leaves
//    every committed transaction readable and the file consistent, and readers in other processes
//    (the desktop app beside a headless node) never block the writer;
//  - synchronous=NORMAL: the log is synced at checkpoints, not at every commit. That keeps every commit
//    through a process crash (the operating system holds the written pages); only a power cut or an
//    operating system crash may lose the last few commits, never the file's consistency;
//  - a busy timeout, so that another process's short write waits instead of failing;
//  - foreign keys enforced.
// A file that exists but is not an SQLite database, or is corrupt, is refused with a clear error and left
// as it was: it is never overwritten.
//
// One thread owns a connection (it is opened without SQLite's internal mutex); other threads or
// processes open their own.
class SqliteDatabase {
public:
    static constexpr int kBusyTimeoutMs = 5000;

    // Opens `path`, creating an empty database when no file is there. Throws SqliteError (a
    // std::runtime_error) naming the file when it cannot be opened, is not an SQLite database, fails
    // SQLite's quick integrity check, or cannot be put in WAL mode.
    static SqliteDatabase open(const QString& path);

    ~SqliteDatabase();
    SqliteDatabase(SqliteDatabase&& other) noexcept;
    SqliteDatabase& operator=(SqliteDatabase&& other) noexcept;
    SqliteDatabase(const SqliteDatabase&) = delete;
    SqliteDatabase& operator=(const SqliteDatabase&) = delete;

    const QString& path() const { return path_; }

    // Runs one or more statements that return no rows.
    void exec(const char* sql) const;
    SqliteStatement prepare(const char* sql) const;

    // PRAGMA user_version: the schema version the application stored.
    int userVersion() const;
    // Brings the schema to version steps.size(): step i (SQL, any number of statements) takes version i
    // to i + 1. The missing steps and the new version are written in one transaction, so a crash leaves
    // the old schema or the new one. A database whose version is above steps.size() was written by a
    // newer program: it is refused (SqliteError) and left untouched.
    void migrate(std::span<const char* const> steps) const;

    // The problems PRAGMA integrity_check finds; empty when the database is sound.
    QStringList integrityProblems() const;
    // PRAGMA journal_mode: "wal" once open() has succeeded.
    QString journalMode() const;
    // Rows the last INSERT, UPDATE or DELETE changed.
    qint64 changes() const;

private:
    explicit SqliteDatabase(QString path);
    [[noreturn]] void fail(const QString& action) const;
    QString pragmaText(const char* sql) const;
    // The rows of PRAGMA quick_check or integrity_check, empty when it answers "ok".
    QStringList checkRows(const char* sql) const;

    QString path_;
    sqlite3* database_ = nullptr;
};

} // namespace sahaj::store
