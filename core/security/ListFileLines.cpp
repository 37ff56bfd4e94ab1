#include "core/security/ListFileLines.h"

#include <stdexcept>

namespace sahaj::security {

ListFileLines::ListFileLines(const QByteArray& content, QString what, QString path)
    : texts_(content.split('\n')), what_(std::move(what)), path_(std::move(path)) {
    if (!texts_.isEmpty() && texts_.back().isEmpty())
        texts_.removeLast();
}

void ListFileLines::fail(qsizetype index, const QString& problem) const {
    throw std::runtime_error(QStringLiteral("%1 %2 line %3: %4")
                                 .arg(what_, path_, QString::number(index + 1), problem)
                                 .toStdString());
}

void ListFileLines::claim(const QByteArray& key, qsizetype index, const QString& subject) {
    if (const auto seen = lineOfKey_.constFind(key); seen != lineOfKey_.constEnd())
        fail(index,
             QStringLiteral("%1 is already listed on line %2").arg(subject, QString::number(*seen + 1)));
    lineOfKey_.insert(key, index);
}

} // namespace sahaj::security
