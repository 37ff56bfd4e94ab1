#include "core/store/SqliteStatement.h"

#include "core/store/SqliteError.h"

#include <sqlite3.h>

#include <utility>

namespace sahaj::store {

SqliteStatement::SqliteStatement(sqlite3* database, const char* sql) : database_(database) {
    const int code = sqlite3_prepare_v2(database_, sql, -1, &statement_, nullptr);
    if (code != SQLITE_OK)
        throwSqliteError(database_, QStringLiteral("cannot prepare \"%1\"").arg(QString::fromUtf8(sql)));
}

SqliteStatement::~SqliteStatement() {
    sqlite3_finalize(statement_);
}

SqliteStatement::SqliteStatement(SqliteStatement&& other) noexcept
    : database_(std::exchange(other.database_, nullptr)),
      statement_(std::exchange(other.statement_, nullptr)) {}

SqliteStatement& SqliteStatement::operator=(SqliteStatement&& other) noexcept {
    if (this != &other) {
        sqlite3_finalize(statement_);
        database_ = std::exchange(other.database_, nullptr);
        statement_ = std::exchange(other.statement_, nullptr);
    }
    return *this;
}

SqliteStatement& SqliteStatement::bindInt64(int index, qint64 value) {
    if (const int code = sqlite3_bind_int64(statement_, index, value); code != SQLITE_OK)
        fail("cannot bind a parameter of");
    return *this;
}

SqliteStatement& SqliteStatement::bindDouble(int index, double value) {
    if (const int code = sqlite3_bind_double(statement_, index, value); code != SQLITE_OK)
        fail("cannot bind a parameter of");
    return *this;
}

SqliteStatement& SqliteStatement::bindText(int index, const QString& text) {
    const QByteArray utf8 = text.toUtf8();
    // SQLITE_TRANSIENT: SQLite copies the bytes, so the temporary may go.
    if (const int code =
            sqlite3_bind_text64(statement_, index, utf8.constData(), static_cast<sqlite3_uint64>(utf8.size()),
                                SQLITE_TRANSIENT, SQLITE_UTF8);
        code != SQLITE_OK)
        fail("cannot bind a parameter of");
    return *this;
}

bool SqliteStatement::step() {
    const int code = sqlite3_step(statement_);
    if (code == SQLITE_ROW)
        return true;
    if (code == SQLITE_DONE)
        return false;
    fail("cannot run");
}

void SqliteStatement::run() {
    while (step()) {
    }
}

void SqliteStatement::reset() {
    // The code sqlite3_reset returns repeats the last step's failure, which step() has already reported.
    sqlite3_reset(statement_);
}

qint64 SqliteStatement::columnInt64(int column) const {
    return sqlite3_column_int64(statement_, column);
}

double SqliteStatement::columnDouble(int column) const {
    return sqlite3_column_double(statement_, column);
}

QString SqliteStatement::columnText(int column) const {
    // sqlite3_column_text before sqlite3_column_bytes: the byte count is that of the UTF-8 form.
    const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(statement_, column));
    return QString::fromUtf8(text, sqlite3_column_bytes(statement_, column));
}

bool SqliteStatement::columnIsNull(int column) const {
    return sqlite3_column_type(statement_, column) == SQLITE_NULL;
}

void SqliteStatement::fail(const char* action) const {
    throwSqliteError(
        database_,
        QStringLiteral("%1 \"%2\"").arg(QLatin1String(action), QString::fromUtf8(sqlite3_sql(statement_))));
}

} // namespace sahaj::store
