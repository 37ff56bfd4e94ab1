#pragma once

#include <QStringList>

namespace sahaj::eval {

// A sentence of a tagging task: one tag per word.
struct TaggedSentence {
    QStringList words;
    QStringList tags;
    qint64 line = 0; // 1-based line of the first word in its file; word i stands on line + i
};

} // namespace sahaj::eval
