// Tokenizer throughput: Sahaj's tokenizer against Hugging Face tokenizers (its Node binding) on the same
// lines in the same run, both single-threaded (and the reference with its thread pool too). Prints
// lines/s, MB/s and tokens/s for each and the ratios.
//
// Usage: sahaj-bench-tokenizer --tokenizer tokenizer.json --lines FILE [--min-mb 4] [--rounds 3]
//                              [--node-modules DIR]
#include "core/text/Tokenizer.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryFile>
#include <QThread>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <limits>

namespace {

struct Timing {
    double seconds = 0;
    long long tokens = 0;
};

int fail(const QString& message) {
    std::fprintf(stderr, "sahaj-bench-tokenizer: %s\n", qPrintable(message));
    return 1;
}

// Best of `rounds`: the least disturbed measurement on a shared machine.
Timing timeOurs(const sahaj::text::Tokenizer& tokenizer, const QStringList& lines, int rounds) {
    Timing best{std::numeric_limits<double>::infinity(), 0};
    for (int r = 0; r < rounds; ++r) {
        long long tokens = 0;
        const auto start = std::chrono::steady_clock::now();
        for (const QString& line : lines)
            tokens += static_cast<long long>(tokenizer.encode(line).ids.size());
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (seconds < best.seconds)
            best = {seconds, tokens};
    }
    return best;
}

void report(const char* who, const Timing& t, qsizetype lines, double megabytes) {
    std::printf("%-22s %10.0f lines/s %8.2f MB/s %12.0f tokens/s  (%.3f s, %lld tokens)\n", who,
                lines / t.seconds, megabytes / t.seconds, t.tokens / t.seconds, t.seconds, t.tokens);
}

} // namespace

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.setApplicationDescription("Tokenizer throughput against Hugging Face tokenizers");
    parser.addHelpOption();
    parser.addOption({"tokenizer", "tokenizer.json to load.", "path"});
    parser.addOption({"lines", "UTF-8 text, one input per line.", "path"});
    parser.addOption({"min-mb", "Repeat the lines until the text is at least this many MB.", "mb", "4"});
    parser.addOption({"rounds", "Timed rounds (the best counts).", "n", "3"});
    parser.addOption({"node-modules", "node_modules folder holding `tokenizers`.", "dir"});
    parser.process(app);
    if (!parser.isSet("tokenizer") || !parser.isSet("lines"))
        return fail("--tokenizer and --lines are required");

    QFile file(parser.value("lines"));
    if (!file.open(QIODevice::ReadOnly))
        return fail("cannot read " + file.fileName() + ": " + file.errorString());
    QStringList unique = QString::fromUtf8(file.readAll()).split('\n', Qt::SkipEmptyParts);
    if (unique.isEmpty())
        return fail(file.fileName() + " holds no lines");
    const double minBytes = parser.value("min-mb").toDouble() * 1e6;
    QStringList lines;
    double bytes = 0;
    while (bytes < minBytes) {
        for (const QString& line : unique) {
            lines << line;
            bytes += line.toUtf8().size() + 1;
        }
    }
    const int rounds = std::max(1, parser.value("rounds").toInt());
    const double megabytes = bytes / 1e6;

    sahaj::text::Tokenizer tokenizer = sahaj::text::Tokenizer::fromFile(parser.value("tokenizer"));
    const Timing ours = timeOurs(tokenizer, lines, rounds);

    // The reference reads the very same lines from a temporary file.
    QTemporaryFile linesFile;
    if (!linesFile.open())
        return fail("cannot create a temporary file");
    linesFile.write(lines.join('\n').toUtf8());
    linesFile.write("\n");
    linesFile.flush();

    // Single-threaded like ours, then with the library's own thread pool for context.
    Timing hf, hfParallel;
    for (const bool parallel : {false, true}) {
        QProcess node;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("TOKENIZERS_PARALLELISM", parallel ? "true" : "false");
        if (parser.isSet("node-modules"))
            env.insert("NODE_PATH", parser.value("node-modules"));
        node.setProcessEnvironment(env);
        node.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        const QString script = QStringLiteral(SAHAJ_BENCH_DIR "/hf_tokenizer_throughput.js");
        node.start("node",
                   {script, parser.value("tokenizer"), linesFile.fileName(), QString::number(rounds)});
        if (!node.waitForFinished(-1) || node.exitStatus() != QProcess::NormalExit || node.exitCode() != 0)
            return fail(
                "the Hugging Face reference did not run (is `tokenizers` installed? see --node-modules)");
        const QByteArray raw = node.readAllStandardOutput();
        const QJsonObject result = QJsonDocument::fromJson(raw).object();
        Timing& timing = parallel ? hfParallel : hf;
        timing.seconds = result.value("seconds").toDouble();
        timing.tokens = static_cast<long long>(result.value("tokens").toDouble());
    }

    std::printf("text: %lld lines, %.2f MB (%lld unique lines), %d rounds, best round counts\n",
                static_cast<long long>(lines.size()), megabytes, static_cast<long long>(unique.size()),
                rounds);
    report("sahaj", ours, lines.size(), megabytes);
    report("huggingface tokenizers", hf, lines.size(), megabytes);
    report("huggingface, parallel", hfParallel, lines.size(), megabytes);
    if (hf.tokens != ours.tokens)
        std::printf("WARNING: token counts differ (%lld vs %lld)\n", ours.tokens, hf.tokens);
    std::printf("ratio sahaj / huggingface, both single-threaded (throughput): %.2f\n",
                hf.seconds / ours.seconds);
    std::printf("ratio sahaj (1 thread) / huggingface (%d threads): %.2f\n", QThread::idealThreadCount(),
                hfParallel.seconds / ours.seconds);
    return 0;
}
