#include "core/store/SqliteDatabase.h"

#include "core/store/SqliteError.h"

#include <QFile>

#include <sqlite3.h>

#include <utility>

namespace sahaj::store {

namespace {

// The first 16 bytes of every SQLite database file.
constexpr char kHeader[] = "SQLite format 3";
constexpr qsizetype kHeaderBytes = sizeof(kHeader); // with its terminating zero byte, as in the file

constexpr const char* kLeftAsItIs = "the file is left as it is";

// A file that does not start with SQLite's header is refused before SQLite opens it, with a message that
// says what is wrong (SQLite's own "file is not a database" comes only at the first read). An empty file
// is an empty database.
void refuseForeignFile(const QString& path) {
    QFile file(path);
    if (!file.exists())
        return;
    if (!file.open(QIODevice::ReadOnly))
        throw SqliteError(QStringLiteral("%1: cannot read: %2").arg(path, file.errorString()), 0);
    if (file.size() == 0)
        return;
    if (file.read(kHeaderBytes) != QByteArray(kHeader, kHeaderBytes))
        throw SqliteError(QStringLiteral("%1: not an SQLite database (it does not start with the SQLite "
                                         "header); %2")
                              .arg(path, QLatin1String(kLeftAsItIs)),
                          0);
}

QString shortSql(const char* sql) {
    constexpr qsizetype kShown = 80;
    const QString text = QString::fromUtf8(sql).simplified();
    return text.size() <= kShown ? text : text.left(kShown) + QStringLiteral("...");
}

} // namespace

SqliteDatabase::SqliteDatabase(QString path) : path_(std::move(path)) {}

SqliteDatabase SqliteDatabase::open(const QString& path) {
    refuseForeignFile(path);
    SqliteDatabase database(path);
    const int code =
        sqlite3_open_v2(QFile::encodeName(path).constData(), &database.database_,
                        SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nullptr);
    if (code != SQLITE_OK) {
        if (!database.database_)
            throw SqliteError(
                QStringLiteral("%1: cannot open: %2").arg(path, QString::fromUtf8(sqlite3_errstr(code))),
                code);
        database.fail(QStringLiteral("cannot open"));
    }
    sqlite3_extended_result_codes(database.database_, 1);
    sqlite3_busy_timeout(database.database_, kBusyTimeoutMs);

    // Read before anything is written: a file SQLite cannot read, or a corrupt one, is refused while it
    // is still untouched (switching to WAL rewrites the header).
    QStringList problems;
    try {
        problems = database.checkRows("PRAGMA quick_check");
    } catch (const SqliteError& e) {
        const bool corrupt = (e.code() & 0xff) == SQLITE_CORRUPT;
        throw SqliteError(QStringLiteral("%1: %2 (%3); %4")
                              .arg(path,
                                   corrupt ? QStringLiteral("the database is corrupt")
                                           : QStringLiteral("cannot be read as an SQLite database"),
                                   QString::fromUtf8(sqlite3_errmsg(database.database_)),
                                   QLatin1String(kLeftAsItIs)),
                          e.code());
    }
    if (!problems.isEmpty())
        throw SqliteError(QStringLiteral("%1: the database is corrupt (%2); %3")
                              .arg(path, problems.first(), QLatin1String(kLeftAsItIs)),
                          SQLITE_CORRUPT);

    const QString mode = database.pragmaText("PRAGMA journal_mode = WAL");
    if (mode != QLatin1String("wal"))
        throw SqliteError(
            QStringLiteral("%1: cannot use the WAL journal mode (SQLite kept \"%2\")").arg(path, mode), 0);
    database.exec("PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON");
    return database;
}

SqliteDatabase::~SqliteDatabase() {
    // close_v2: should a statement still be alive, the connection closes when it is finalized.
    sqlite3_close_v2(database_);
}

SqliteDatabase::SqliteDatabase(SqliteDatabase&& other) noexcept
    : path_(std::move(other.path_)), database_(std::exchange(other.database_, nullptr)) {}

SqliteDatabase& SqliteDatabase::operator=(SqliteDatabase&& other) noexcept {
    if (this != &other) {
        sqlite3_close_v2(database_);
        path_ = std::move(other.path_);
        database_ = std::exchange(other.database_, nullptr);
    }
    return *this;
}

void SqliteDatabase::exec(const char* sql) const {
    if (sqlite3_exec(database_, sql, nullptr, nullptr, nullptr) != SQLITE_OK)
        fail(QStringLiteral("cannot run \"%1\"").arg(shortSql(sql)));
}

SqliteStatement SqliteDatabase::prepare(const char* sql) const {
    return SqliteStatement(database_, sql);
}

int SqliteDatabase::userVersion() const {
    SqliteStatement statement = prepare("PRAGMA user_version");
    statement.step();
    return static_cast<int>(statement.columnInt64(0));
}

void SqliteDatabase::migrate(std::span<const char* const> steps) const {
    const int known = static_cast<int>(steps.size());
    auto refuseUnknown = [&](int version) {
        throw SqliteError(QStringLiteral("%1: the schema is version %2, which this program does not know (it "
                                         "knows versions up to %3); refusing to change it")
                              .arg(path_)
                              .arg(version)
                              .arg(known),
                          0);
    };
    int version = userVersion();
    if (version < 0 || version > known)
        refuseUnknown(version);
    if (version == known)
        return;

    // IMMEDIATE takes the write lock at once: two processes opening a new file cannot both migrate it.
    exec("BEGIN IMMEDIATE");
    try {
        version = userVersion();
        if (version < 0 || version > known)
            refuseUnknown(version);
        for (; version < known; ++version)
            exec(steps[static_cast<std::size_t>(version)]);
        exec(QStringLiteral("PRAGMA user_version = %1").arg(known).toUtf8().constData());
        exec("COMMIT");
    } catch (...) {
        sqlite3_exec(database_, "ROLLBACK", nullptr, nullptr, nullptr);
        throw;
    }
}

QStringList SqliteDatabase::integrityProblems() const {
    return checkRows("PRAGMA integrity_check");
}

QString SqliteDatabase::journalMode() const {
    return pragmaText("PRAGMA journal_mode");
}

qint64 SqliteDatabase::changes() const {
    return sqlite3_changes64(database_);
}

void SqliteDatabase::fail(const QString& action) const {
    throwSqliteError(database_, path_, action);
}

QString SqliteDatabase::pragmaText(const char* sql) const {
    SqliteStatement statement = prepare(sql);
    if (!statement.step())
        return {};
    return statement.columnText(0);
}

QStringList SqliteDatabase::checkRows(const char* sql) const {
    // The check pragmas answer one row "ok", or one row per problem found.
    SqliteStatement statement = prepare(sql);
    QStringList rows;
    while (statement.step())
        rows.append(statement.columnText(0));
    if (rows == QStringList{QStringLiteral("ok")})
        return {};
    return rows;
}

} // namespace sahaj::store
