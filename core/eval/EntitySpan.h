#pragma once

#include <QString>

namespace sahaj::eval {

// An entity in a tagged sentence: words [begin, end) of one type.
struct EntitySpan {
    QString type;
    int begin = 0;
    int end = 0; // exclusive

    bool operator==(const EntitySpan&) const = default;
};

} // namespace sahaj::eval
