#pragma once

#include "core/eval/EntitySpan.h"

#include <QStringList>

#include <vector>

namespace sahaj::eval {

// Cuts a BIO tag sequence into entities by the chunk rules of conlleval (and seqeval's default mode), so
// that scores match the numbers published with those tools. A chunk starts at B-X, and at I-X after O,
// at the sentence start or after another type (an I- without B- still starts an entity); it ends before
// O, before any B-, before I-Y of another type, and at the end of the sentence.
class EntitySpans {
public:
    // The entities in order of position (they never overlap). Throws std::invalid_argument for a tag
    // that is not O, B-TYPE or I-TYPE.
    static std::vector<EntitySpan> extract(const QStringList& tags);
};

} // namespace sahaj::eval
