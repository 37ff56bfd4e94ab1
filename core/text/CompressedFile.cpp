#include "core/text/CompressedFile.h"

#include <QFileInfo>

#include <zlib.h>
#include <zstd.h>

#include <vector>

namespace sahaj::text {

namespace {

constexpr qint64 kInputChunk = 256 * 1024;

} // namespace

// The decompressor's state and its input buffer.
struct CompressedFile::Decoder {
    explicit Decoder(Codec codec) : codec(codec), input(std::size_t(kInputChunk)) {}
    ~Decoder() {
        if (zlibStarted)
            inflateEnd(&zlib);
        if (zstd)
            ZSTD_freeDStream(zstd);
    }
    Codec codec;
    std::vector<char> input;
    std::size_t inputStart = 0; // unread input is [inputStart, inputEnd)
    std::size_t inputEnd = 0;
    bool fileDone = false;
    // true between the end of one gzip member or zstd frame and the start of the next: the file may end
    // here without being truncated.
    bool atBoundary = true;
    z_stream zlib{};
    bool zlibStarted = false;
    ZSTD_DStream* zstd = nullptr;
};

CompressedFile::Codec CompressedFile::codecOf(const QString& path) {
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("gz"))
        return Codec::Gzip;
    if (suffix == QLatin1String("zst"))
        return Codec::Zstd;
    return Codec::None;
}

QString CompressedFile::contentName(const QString& path) {
    return codecOf(path) == Codec::None ? path : path.left(path.lastIndexOf(QLatin1Char('.')));
}

CompressedFile::CompressedFile(const QString& path) : file_(path), codec_(codecOf(path)) {}

CompressedFile::~CompressedFile() = default;

bool CompressedFile::open(OpenMode mode) {
    if (mode != ReadOnly) {
        setErrorString(QStringLiteral("a compressed corpus file can be opened for reading only"));
        return false;
    }
    if (!file_.open(ReadOnly)) {
        setErrorString(file_.errorString());
        return false;
    }
    if (!startDecoder()) {
        file_.close();
        return false;
    }
    ended_ = false;
    failed_ = false;
    return QIODevice::open(mode);
}

bool CompressedFile::startDecoder() {
    decoder_.reset();
    if (codec_ == Codec::None)
        return true;
    auto decoder = std::make_unique<Decoder>(codec_);
    if (codec_ == Codec::Gzip) {
        // 15 + 16: the gzip wrapper only, with the largest window.
        if (inflateInit2(&decoder->zlib, 15 + 16) != Z_OK) {
            setErrorString(QStringLiteral("zlib cannot start a decompressor"));
            return false;
        }
        decoder->zlibStarted = true;
    } else {
        decoder->zstd = ZSTD_createDStream();
        if (!decoder->zstd || ZSTD_isError(ZSTD_initDStream(decoder->zstd))) {
            setErrorString(QStringLiteral("zstd cannot start a decompressor"));
            return false;
        }
    }
    decoder_ = std::move(decoder);
    return true;
}

void CompressedFile::close() {
    decoder_.reset();
    file_.close();
    QIODevice::close();
}

bool CompressedFile::atEnd() const {
    return ended_ && QIODevice::bytesAvailable() == 0;
}

bool CompressedFile::reset() {
    if (!isOpen())
        return false;
    const OpenMode mode = openMode();
    close();
    return open(mode);
}

qint64 CompressedFile::fail(const QString& problem) {
    failed_ = true;
    setErrorString(QStringLiteral("%1: %2").arg(file_.fileName(), problem));
    return -1;
}

qint64 CompressedFile::readData(char* data, qint64 maxSize) {
    if (ended_ || failed_)
        return -1;
    if (maxSize <= 0)
        return 0;
    if (!decoder_) {
        const qint64 read = file_.read(data, maxSize);
        if (read < 0)
            return fail(file_.errorString());
        if (read == 0)
            ended_ = true;
        return read == 0 ? -1 : read;
    }
    Decoder& d = *decoder_;
    qint64 produced = 0;
    while (produced == 0) {
        if (d.inputStart == d.inputEnd && !d.fileDone) {
            const qint64 read = file_.read(d.input.data(), kInputChunk);
            if (read < 0)
                return fail(file_.errorString());
            d.inputStart = 0;
            d.inputEnd = std::size_t(read);
            d.fileDone = read == 0;
        }
        if (d.inputStart == d.inputEnd && d.fileDone) {
            if (!d.atBoundary)
                return fail(QStringLiteral("the compressed stream is cut short (truncated file)"));
            ended_ = true;
            return -1;
        }
        if (d.codec == Codec::Gzip) {
            if (d.atBoundary && produced == 0 && d.zlib.total_in > 0)
                inflateReset(&d.zlib); // the next member
            d.zlib.next_in = reinterpret_cast<Bytef*>(d.input.data() + d.inputStart);
            d.zlib.avail_in = uInt(d.inputEnd - d.inputStart);
            d.zlib.next_out = reinterpret_cast<Bytef*>(data);
            d.zlib.avail_out = uInt(std::min<qint64>(maxSize, 1 << 30));
            const uInt before = d.zlib.avail_out;
            const int status = inflate(&d.zlib, Z_NO_FLUSH);
            if (status != Z_OK && status != Z_STREAM_END && status != Z_BUF_ERROR)
                return fail(QStringLiteral("the gzip stream is damaged (%1)")
                                .arg(QString::fromLatin1(d.zlib.msg ? d.zlib.msg : "zlib error")));
            d.inputStart = d.inputEnd - d.zlib.avail_in;
            produced = qint64(before - d.zlib.avail_out);
            d.atBoundary = status == Z_STREAM_END;
        } else {
            ZSTD_inBuffer in{d.input.data(), d.inputEnd, d.inputStart};
            ZSTD_outBuffer out{data, std::size_t(maxSize), 0};
            const std::size_t status = ZSTD_decompressStream(d.zstd, &out, &in);
            if (ZSTD_isError(status))
                return fail(QStringLiteral("the zstd stream is damaged (%1)")
                                .arg(QString::fromLatin1(ZSTD_getErrorName(status))));
            d.inputStart = in.pos;
            produced = qint64(out.pos);
            d.atBoundary = status == 0; // a frame is complete
        }
    }
    return produced;
}

qint64 CompressedFile::writeData(const char*, qint64) {
    return -1;
}

} // namespace sahaj::text
