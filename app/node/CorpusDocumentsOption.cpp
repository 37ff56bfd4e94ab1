#include "app/node/CorpusDocumentsOption.h"

#include "app/node/UsageError.h"

namespace sahaj::node {

namespace {
const QString kDocumentsOption = QStringLiteral("documents");
}

void CorpusDocumentsOption::add(QCommandLineParser& parser) {
    parser.addOption(
        {kDocumentsOption,
         "How plain text is cut into documents: 'lines' (every line is a document, the default) or "
         "'paragraphs' (blank lines separate documents; sentences are packed within one).",
         "LAYOUT"});
}

text::PlainTextDocuments CorpusDocumentsOption::value(const QCommandLineParser& parser,
                                                      text::PlainTextDocuments fallback) {
    if (!parser.isSet(kDocumentsOption))
        return fallback;
    const std::optional<text::PlainTextDocuments> documents =
        text::CorpusReaderOptions::documentsFromName(parser.value(kDocumentsOption));
    if (!documents)
        throw UsageError("--documents must be 'lines' or 'paragraphs', got '" +
                         parser.value(kDocumentsOption).toStdString() + "'");
    return *documents;
}

} // namespace sahaj::node
