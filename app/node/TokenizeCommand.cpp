#include "app/node/TokenizeCommand.h"

#include "app/node/CommandLine.h"
#include "core/text/Tokenizer.h"
#include "core/text/TokenizerUnicode.h"

#include <cstdio>
#include <stdexcept>
#include <string>
#include <string_view>

namespace sahaj::node {

namespace {

constexpr std::size_t kReadChunk = 1 << 20;
constexpr std::size_t kWriteChunk = 1 << 20;

// Whether `bytes` is well-formed UTF-8: no stray continuation bytes, no overlong forms, no
// surrogates, nothing above U+10FFFF. QString::fromUtf8 would quietly turn such bytes into U+FFFD.
bool isValidUtf8(std::string_view bytes) {
    const auto* p = reinterpret_cast<const unsigned char*>(bytes.data());
    const auto* end = p + bytes.size();
    while (p < end) {
        const unsigned char lead = *p;
        if (lead < 0x80) {
            ++p;
            continue;
        }
        int length = 0;
        unsigned min = 0;
        if (lead >= 0xC2 && lead <= 0xDF) {
            length = 2;
            min = 0x80;
        } else if (lead >= 0xE0 && lead <= 0xEF) {
            length = 3;
            min = 0x800;
        } else if (lead >= 0xF0 && lead <= 0xF4) {
            length = 4;
            min = 0x10000;
        } else {
            return false;
        }
        if (end - p < length)
            return false;
        unsigned code = lead & (0x7F >> length);
        for (int i = 1; i < length; ++i) {
            if ((p[i] & 0xC0) != 0x80)
                return false;
            code = (code << 6) | (p[i] & 0x3F);
        }
        if (code < min || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF))
            return false;
        p += length;
    }
    return true;
}

// Collects output and writes it in large blocks: one write per line would dominate the run time.
class OutputBuffer {
public:
    ~OutputBuffer() {
        // Normally flushed already; on an exception path a failing write must not escape a destructor.
        try {
            flush();
        } catch (const std::exception&) {
        }
    }
    void appendIds(const std::vector<int>& ids) {
        text_ += '[';
        for (std::size_t i = 0; i < ids.size(); ++i) {
            if (i > 0)
                text_ += ',';
            text_ += std::to_string(ids[i]);
        }
        text_ += "]\n";
        if (text_.size() >= kWriteChunk)
            flush();
    }
    void flush() {
        if (!text_.empty() && std::fwrite(text_.data(), 1, text_.size(), stdout) != text_.size())
            throw std::runtime_error("cannot write to standard output");
        text_.clear();
        std::fflush(stdout);
    }

private:
    std::string text_;
};

} // namespace

QString TokenizeCommand::description() const {
    return QStringLiteral(
        "Reads UTF-8 text from standard input, one text per line, and prints for each line the token ids\n"
        "as a JSON array, e.g. [2,75,3265,721,5641,6,3]. The tokenizer is a Hugging Face tokenizer.json\n"
        "with a Unigram model (the sahajBERT tokenizer). A line ends at \\n or \\r\\n.\n"
        "With --pair each line holds two texts separated by a TAB (the first TAB; later ones belong to\n"
        "the second text), tokenized together as one input ([CLS] a [SEP] b [SEP]).");
}

void TokenizeCommand::addOptions(QCommandLineParser& parser) const {
    parser.addOption(
        {QStringLiteral("tokenizer"), QStringLiteral("The tokenizer.json to use."), QStringLiteral("path")});
    parser.addOption({QStringLiteral("pair"), QStringLiteral("Each line is two texts separated by a TAB.")});
    parser.addOption({QStringLiteral("no-special-tokens"),
                      QStringLiteral("Leave out the special tokens the tokenizer adds ([CLS], [SEP]).")});
}

int TokenizeCommand::run(const QCommandLineParser& parser) {
    const QString path = CommandLine::requiredValue(parser, QStringLiteral("tokenizer"));
    const bool pair = parser.isSet(QStringLiteral("pair"));
    const bool addSpecialTokens = !parser.isSet(QStringLiteral("no-special-tokens"));
    const text::Tokenizer tokenizer = text::Tokenizer::fromFile(path);

    OutputBuffer output;
    long long lineNumber = 0;
    const auto tokenizeLine = [&](std::string_view line) {
        ++lineNumber;
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        const auto fail = [&](const std::string& problem) {
            output.flush(); // the lines before the bad one are done; keep their output
            throw std::runtime_error("line " + std::to_string(lineNumber) + ": " + problem);
        };
        if (!isValidUtf8(line))
            fail("not valid UTF-8");
        if (!pair) {
            const QString text =
                text::TokenizerUnicode::fromUtf8(QByteArrayView(line.data(), qsizetype(line.size())));
            output.appendIds(addSpecialTokens ? tokenizer.encode(text).ids : tokenizer.encodeIds(text));
            return;
        }
        const std::size_t tab = line.find('\t');
        if (tab == std::string_view::npos)
            fail("no TAB between the two texts of a pair");
        const QString first = text::TokenizerUnicode::fromUtf8(QByteArrayView(line.data(), qsizetype(tab)));
        const QString second = text::TokenizerUnicode::fromUtf8(
            QByteArrayView(line.data() + tab + 1, qsizetype(line.size() - tab - 1)));
        output.appendIds(tokenizer.encodePair(first, second, addSpecialTokens).ids);
    };

    std::string pending;
    std::string chunk(kReadChunk, '\0');
    for (;;) {
        const std::size_t read = std::fread(chunk.data(), 1, chunk.size(), stdin);
        if (read == 0)
            break;
        pending.append(chunk.data(), read);
        std::size_t start = 0;
        for (std::size_t newline; (newline = pending.find('\n', start)) != std::string::npos;
             start = newline + 1)
            tokenizeLine(std::string_view(pending).substr(start, newline - start));
        pending.erase(0, start);
    }
    if (std::ferror(stdin))
        throw std::runtime_error("cannot read standard input");
    if (!pending.empty())
        tokenizeLine(pending);
    output.flush();
    return 0;
}

} // namespace sahaj::node
