#pragma once

#include <QString>

namespace sahaj::eval {

// An example of a text classification task.
struct LabelledText {
    QString text;
    QString label;   // integer labels are kept as their decimal text
    qint64 line = 0; // 1-based line in its file
};

} // namespace sahaj::eval
