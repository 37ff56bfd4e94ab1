#pragma once

#include "core/eval/TaggedSentence.h"

#include <QString>

#include <vector>

namespace sahaj::eval {

// Reads CoNLL-style NER data (CoNLL-2003, WikiANN, ...): one word per line with its columns separated by
// spaces or tabs, the word first and the BIO tag last (columns between are ignored), sentences separated
// by blank lines; "-DOCSTART-" lines are skipped and end a sentence. UTF-8, optional BOM, LF or CRLF.
class ConllReader {
public:
    // Throws DataFileError (a std::runtime_error) "PATH:LINE: problem" for a line without a tag or with a
    // tag that is not O, B-TYPE or I-TYPE, and "PATH: problem" for an unreadable file or one without
    // any sentence.
    static std::vector<TaggedSentence> read(const QString& path);
};

} // namespace sahaj::eval
