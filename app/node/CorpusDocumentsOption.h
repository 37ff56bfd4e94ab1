#pragma once

#include "core/text/CorpusReader.h"

#include <QCommandLineParser>

namespace sahaj::node {

// `--documents lines|paragraphs`: how a plain-text corpus is cut into documents, shared by the commands
// that read corpora so that they agree on the names and the error.
class CorpusDocumentsOption {
public:
    static void add(QCommandLineParser& parser);
    // The option's value, or `fallback` when it is not given; throws UsageError for an unknown name.
    static text::PlainTextDocuments value(const QCommandLineParser& parser,
                                          text::PlainTextDocuments fallback);
};

} // namespace sahaj::node
