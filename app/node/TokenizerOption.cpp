#include "app/node/TokenizerOption.h"

#include "app/node/CommandLine.h"
#include "app/node/UsageError.h"
#include "core/text/Tokenizer.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

namespace sahaj::node {

namespace {

const QString kTokenizerOption = QStringLiteral("tokenizer");
const QString kTokenizerRelative = QStringLiteral("data/sahajbert-tokenizer/tokenizer.json");

} // namespace

void TokenizerOption::add(QCommandLineParser& parser, const QString& description) {
    parser.addOption({kTokenizerOption, description, "PATH"});
}

std::optional<QString> TokenizerOption::sharedTokenizer() {
    const QString sharedDir = qEnvironmentVariable("SAHAJ_SHARED_DIR");
    if (!sharedDir.isEmpty()) {
        const QString candidate = QDir(sharedDir).filePath(kTokenizerRelative);
        if (QFileInfo::exists(candidate))
            return candidate;
    }
    for (const QString& start : {QCoreApplication::applicationDirPath(), QDir::currentPath()}) {
        QDir dir(start);
        do {
            const QString candidate = dir.filePath(QStringLiteral("shared/") + kTokenizerRelative);
            if (QFileInfo::exists(candidate))
                return QDir::cleanPath(candidate);
        } while (dir.cdUp());
    }
    return std::nullopt;
}

QString TokenizerOption::value(const QCommandLineParser& parser,
                               const std::optional<QString>& modelTokenizer) {
    if (parser.isSet(kTokenizerOption))
        return CommandLine::existingFile(kTokenizerOption, parser.value(kTokenizerOption));
    if (modelTokenizer)
        return *modelTokenizer;
    if (const auto found = sharedTokenizer())
        return *found;
    throw UsageError("no tokenizer found: the sahajBERT tokenizer is not at $SAHAJ_SHARED_DIR/" +
                     kTokenizerRelative.toStdString() +
                     " nor in a shared/ folder beside the repository; pass --tokenizer PATH");
}

QString TokenizerOption::pathForModel(const QCommandLineParser& parser,
                                      const std::optional<std::filesystem::path>& modelTokenizer) {
    return value(parser, modelTokenizer
                             ? std::optional<QString>(QString::fromStdString(modelTokenizer->string()))
                             : std::nullopt);
}

text::Tokenizer TokenizerOption::loadForModel(const QString& path, std::int64_t vocabSize) {
    text::Tokenizer tokenizer = text::Tokenizer::fromFile(path);
    if (tokenizer.vocabSize() > vocabSize)
        throw std::runtime_error("the tokenizer has " + std::to_string(tokenizer.vocabSize()) +
                                 " tokens but the model's vocabulary has only " + std::to_string(vocabSize));
    return tokenizer;
}

} // namespace sahaj::node
