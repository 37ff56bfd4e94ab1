// The shard downloader's rate against curl's on the same file from the same nginx on loopback, in the same
// run: Sahaj's figure includes hashing every byte and writing it to the cache; the references are curl
// writing the file (`curl -o`) and curl piped into sha256sum (the same work as Sahaj's).
//
// Usage: sahaj-bench-download [--mib N] [--repeat R]

#include "core/fetch/ShardDownloader.h"
#include "tests/common/NginxServer.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>

#include <algorithm>
#include <cstdio>
#include <random>
#include <vector>

namespace {

double bestOf(int repeat, const std::function<double()>& once) {
    double best = 0;
    for (int i = 0; i < repeat; ++i)
        best = std::max(best, once());
    return best;
}

double shellRate(const QString& command, qint64 bytes) {
    QElapsedTimer clock;
    clock.start();
    if (QProcess::execute("sh", {"-c", command}) != 0) {
        std::fprintf(stderr, "bench: '%s' failed\n", qPrintable(command));
        return 0;
    }
    return double(bytes) / (double(clock.nsecsElapsed()) / 1e9);
}

} // namespace

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.addOption({"mib", "size of the file in MiB", "N", "512"});
    parser.addOption({"repeat", "runs of each, the best counts", "R", "3"});
    parser.process(app);
    const qint64 bytes = parser.value("mib").toLongLong() << 20;
    const int repeat = std::max(1, parser.value("repeat").toInt());

    QTemporaryDir served, work, out;
    const QString file = QDir(served.path()).filePath("shard.bin");
    QCryptographicHash hash(QCryptographicHash::Sha256);
    {
        QFile f(file);
        if (!f.open(QIODevice::WriteOnly))
            return 1;
        std::mt19937_64 random(1);
        std::vector<quint64> block(1 << 17);
        for (qint64 written = 0; written < bytes; written += qint64(block.size() * 8)) {
            for (auto& word : block)
                word = random();
            const auto* data = reinterpret_cast<const char*>(block.data());
            const qint64 n = std::min<qint64>(qint64(block.size() * 8), bytes - written);
            f.write(data, n);
            hash.addData(QByteArrayView(data, n));
        }
    }
    sahaj::test::NginxServer server(served.path(), work.path());
    QString error;
    if (!server.start(&error)) {
        std::fprintf(stderr, "bench: nginx: %s\n", qPrintable(error));
        return 1;
    }
    const sahaj::run::DataShard shard{
        {server.url("shard.bin")}, QString::fromLatin1(hash.result().toHex()), bytes};

    const double sahajRate = bestOf(repeat, [&] {
        QTemporaryDir cacheDir(out.filePath("cache-XXXXXX"));
        sahaj::fetch::ShardCache cache(cacheDir.path(), "bench", bytes * 2);
        QElapsedTimer clock;
        clock.start();
        sahaj::fetch::ShardDownloader(cache, {}).fetch(shard);
        return double(bytes) / (double(clock.nsecsElapsed()) / 1e9);
    });
    const QString target = out.filePath("curl.bin");
    const double curlRate = bestOf(repeat, [&] {
        return shellRate(QStringLiteral("curl -sf -o '%1' '%2'").arg(target, shard.urls[0]), bytes);
    });
    const double curlHashRate = bestOf(repeat, [&] {
        return shellRate(
            QStringLiteral("curl -sf '%1' | tee '%2' | sha256sum >/dev/null").arg(shard.urls[0], target),
            bytes);
    });
    const double mib = double(1 << 20);
    std::printf("download of %lld MiB from nginx on loopback, best of %d\n", (long long)(bytes >> 20),
                repeat);
    std::printf("sahaj (hash + cache):        %8.1f MiB/s\n", sahajRate / mib);
    std::printf("curl -o:                     %8.1f MiB/s  sahaj/curl = %.2f\n", curlRate / mib,
                sahajRate / curlRate);
    std::printf("curl | tee | sha256sum:      %8.1f MiB/s  sahaj/curl+sha256sum = %.2f\n", curlHashRate / mib,
                sahajRate / curlHashRate);
    return 0;
}
