#pragma once

#include "core/eval/LabelledText.h"

#include <QString>

#include <vector>

namespace sahaj::eval {

// Reads text classification data in either of the two layouts datasets ship in:
// - JSONL (a .jsonl or .json file, or one whose first non-blank character is '{'): one object per line
//   with a string "text" and a "label" that is a string or an integer; other keys are ignored.
// - TSV (anything else): "text<TAB>label" on every line, or a first line whose cells include "text" and
//   "label" (any case) naming the columns, every line then having as many cells as that header.
// Blank lines are skipped; text and label are trimmed. UTF-8, optional BOM, LF or CRLF.
class ClassificationReader {
public:
    // Throws DataFileError (a std::runtime_error) "PATH:LINE: problem" for a line that is not JSON, lacks
    // a field or has one of the wrong type, has the wrong number of cells, or has an empty text or label;
    // and "PATH: problem" for an unreadable file or one without any example.
    static std::vector<LabelledText> read(const QString& path);
};

} // namespace sahaj::eval
