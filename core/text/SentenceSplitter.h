#pragma once

#include <QString>
#include <QStringList>

namespace sahaj::text {

// Splits a document into sentences for the sentence-order task. A sentence ends after a run of
// terminal marks - danda '।', double danda '॥', '?', '!' (and the look-alikes the sahajBERT normaliser
// maps to danda: '৤', '৥', '৷') - or after '.' followed by whitespace, and at every line break.
// The mark stays with its sentence, as do closing quotes and brackets right after it. Sentences are
// trimmed; empty ones are dropped.
class SentenceSplitter {
public:
    static QStringList split(const QString& document);

private:
    static bool isTerminal(QChar c);
    static bool isClosing(QChar c);
};

} // namespace sahaj::text
