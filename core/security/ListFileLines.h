#pragma once

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QString>

namespace sahaj::security {

// The lines of an admission list file (the allowlist, the invite list): one entry, blank or comment per
// line, read whole and rewritten whole. Both lists split their text and report a bad or repeated entry
// through this class, so that a user sees the same "<kind> <file> line <n>: <problem>" from either.
class ListFileLines {
public:
    // Splits `content` at '\n'; the final newline ends the last line, it does not start another. `what`
    // names the file's kind ("allowlist") and `path` the file in error messages.
    ListFileLines(const QByteArray& content, QString what, QString path);

    qsizetype size() const { return texts_.size(); }
    // Line `index` (from 0) as written, without its '\n'.
    const QByteArray& at(qsizetype index) const { return texts_.at(index); }

    // Throws std::runtime_error "`what` `path` line <index + 1>: `problem`".
    [[noreturn]] void fail(qsizetype index, const QString& problem) const;

    // Records that line `index` lists `key`; when an earlier line listed it already, fails on `index`
    // with "`subject` is already listed on line <n>": each user or code may stand once only.
    void claim(const QByteArray& key, qsizetype index, const QString& subject);

private:
    QList<QByteArray> texts_;
    QString what_;
    QString path_;
    QHash<QByteArray, qsizetype> lineOfKey_;
};

} // namespace sahaj::security
