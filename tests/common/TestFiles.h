#pragma once

// Small helpers shared by tests that write input files and check error messages.

#include <QByteArray>
#include <QFile>
#include <QString>
#include <QTemporaryDir>

#include <exception>

namespace sahaj::test {

// The tokenizer the build trains on the test sample (SAHAJ_SAMPLE_TOKENIZER, tests/CMakeLists.txt), for the
// tests that need some tokenizer, not sahajBERT's: they run on a fresh clone too. It is built with the
// tests, so a missing one ends the run with the reason rather than skipping.
inline QString sampleTokenizerPath() {
    const QString path = qEnvironmentVariable("SAHAJ_SAMPLE_TOKENIZER");
    if (path.isEmpty() || !QFile::exists(path))
        qFatal("the tests' sample tokenizer (SAHAJ_SAMPLE_TOKENIZER='%s') is missing: build the target "
               "sahaj_sample_tokenizer",
               qPrintable(path));
    return path;
}

// The small Bengali corpus the collaboration tests train on (in the source tree).
inline QString sampleCorpusPath() {
    return qEnvironmentVariable("SAHAJ_SOURCE_DIR") + "/tests/train/data/bengali-sample.txt";
}

// Writes `content` to `name` inside `dir` and returns the path; a failure to write ends the test run.
inline QString writeFile(const QTemporaryDir& dir, const QString& name, const QByteArray& content) {
    const QString path = dir.filePath(name);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(content) != content.size())
        qFatal("cannot write %s", qPrintable(path));
    return path;
}

// The message of the exception `action` throws, or an empty string when it throws none.
template <typename Action>
QString errorOf(Action&& action) {
    try {
        action();
    } catch (const std::exception& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

} // namespace sahaj::test
