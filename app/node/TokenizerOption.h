#pragma once

#include <QCommandLineParser>
#include <QString>

#include <cstdint>
#include <filesystem>
#include <optional>

namespace sahaj::text {
class Tokenizer;
}

namespace sahaj::node {

// `--tokenizer PATH` for commands that tokenise text, with one rule for its default everywhere: the
// tokenizer the model was trained with when known, else the sahajBERT tokenizer of the shared data folder
// ($SAHAJ_SHARED_DIR, or a shared/ folder beside the repository, found by walking up from the executable
// and from the working directory).
class TokenizerOption {
public:
    static void add(QCommandLineParser& parser, const QString& description);
    // The tokenizer file to use; UsageError when --tokenizer names no readable file, or when nothing is
    // given and no default exists.
    static QString value(const QCommandLineParser& parser, const std::optional<QString>& modelTokenizer = {});
    // value(parser, the tokenizer a model folder names, if any): the tokenizer file to use with that model.
    static QString pathForModel(const QCommandLineParser& parser,
                                const std::optional<std::filesystem::path>& modelTokenizer);
    // Loads a tokenizer and checks that its ids fit the model's vocabulary (std::runtime_error otherwise).
    static text::Tokenizer loadForModel(const QString& path, std::int64_t vocabSize);
    // The sahajBERT tokenizer of the shared data folder, when present.
    static std::optional<QString> sharedTokenizer();
};

} // namespace sahaj::node
