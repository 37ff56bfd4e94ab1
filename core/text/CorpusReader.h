#pragma once

#include "core/text/CompressedFile.h"

#include <QString>

#include <memory>
#include <optional>

namespace sahaj::text {

// How a corpus file is laid out.
enum class CorpusFormat {
    Auto,      // by extension (after any .gz / .zst): .jsonl / .json -> Jsonl, anything else -> PlainText
    PlainText, // UTF-8 text, see PlainTextDocuments
    Jsonl,     // one JSON object per line with a string field (default "text")
};

// How plain text is cut into documents.
enum class PlainTextDocuments {
    LinePerDocument,    // every non-blank line is a document
    BlankLineSeparated, // consecutive non-blank lines form a document (BERT's corpus layout)
};

// What to do with a JSONL line that is not an object with a string text field.
enum class BadLinePolicy {
    Fail, // throw, naming file and line: a broken corpus should not train silently
    Skip, // skip and count it (skippedLines()): for large scraped corpora with rare damage
};

struct CorpusReaderOptions {
    CorpusFormat format = CorpusFormat::Auto;
    PlainTextDocuments documents = PlainTextDocuments::LinePerDocument;
    BadLinePolicy badLines = BadLinePolicy::Fail;
    QString textField = QStringLiteral("text");

    // The command-line and checkpoint names of a document layout: "lines" and "paragraphs".
    static QString documentsName(PlainTextDocuments documents);
    static std::optional<PlainTextDocuments> documentsFromName(const QString& name);
};

// Reads documents from a corpus file lazily, one at a time, so corpora far larger than memory stream
// through; a `.gz` or `.zst` file is decompressed as it is read (CompressedFile), its format told by the
// name without that suffix. Documents are returned trimmed; empty ones are never returned. Errors (unreadable
// file, bad JSONL line under BadLinePolicy::Fail) throw std::runtime_error with "file:line: problem".
class CorpusReader {
public:
    explicit CorpusReader(const QString& path, CorpusReaderOptions options = {});
    ~CorpusReader();
    CorpusReader(const CorpusReader&) = delete;
    CorpusReader& operator=(const CorpusReader&) = delete;

    // The next document, or nullopt at the end of the file.
    std::optional<QString> next();
    // Starts again from the first document (skipped-line count is kept).
    void rewind();

    const QString& path() const { return path_; }
    CorpusFormat format() const { return format_; }
    // 1-based number of the last line read.
    qint64 lineNumber() const { return lineNumber_; }
    // JSONL lines skipped under BadLinePolicy::Skip since construction.
    qint64 skippedLines() const { return skippedLines_; }

private:
    std::optional<QString> readLine();
    std::optional<QString> nextPlainLine();
    std::optional<QString> nextParagraph();
    std::optional<QString> nextJsonDocument();
    [[noreturn]] void fail(const QString& problem) const;

    QString path_;
    CorpusReaderOptions options_;
    CorpusFormat format_;
    std::unique_ptr<CompressedFile> file_;
    qint64 lineNumber_ = 0;
    qint64 skippedLines_ = 0;
};

} // namespace sahaj::text
