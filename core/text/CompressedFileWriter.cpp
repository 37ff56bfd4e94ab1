#include "core/text/CompressedFileWriter.h"

#include <zlib.h>
#include <zstd.h>

#include <stdexcept>
#include <vector>

namespace sahaj::text {

namespace {

constexpr std::size_t kOutputChunk = 256 * 1024;

} // namespace

struct CompressedFileWriter::Encoder {
    explicit Encoder(CompressedFile::Codec codec) : codec(codec), output(kOutputChunk) {}
    ~Encoder() {
        if (zlibStarted)
            deflateEnd(&zlib);
        if (zstd)
            ZSTD_freeCCtx(zstd);
    }
    CompressedFile::Codec codec;
    std::vector<char> output;
    z_stream zlib{};
    bool zlibStarted = false;
    ZSTD_CCtx* zstd = nullptr;
};

CompressedFileWriter::CompressedFileWriter(const QString& path, CompressedFile::Codec codec, int level)
    : file_(path) {
    if (!file_.open(QIODevice::WriteOnly))
        throw std::runtime_error(
            QStringLiteral("cannot create %1: %2").arg(path, file_.errorString()).toStdString());
    if (codec == CompressedFile::Codec::None)
        return;
    encoder_ = std::make_unique<Encoder>(codec);
    if (codec == CompressedFile::Codec::Gzip) {
        // 15 + 16: a gzip wrapper around the largest window.
        if (deflateInit2(&encoder_->zlib, level > 0 ? level : Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8,
                         Z_DEFAULT_STRATEGY) != Z_OK)
            throw std::runtime_error("zlib cannot start a compressor for " + path.toStdString());
        encoder_->zlibStarted = true;
    } else {
        encoder_->zstd = ZSTD_createCCtx();
        if (!encoder_->zstd || ZSTD_isError(ZSTD_CCtx_setParameter(encoder_->zstd, ZSTD_c_compressionLevel,
                                                                   level > 0 ? level : 3)))
            throw std::runtime_error("zstd cannot start a compressor for " + path.toStdString());
    }
}

CompressedFileWriter::~CompressedFileWriter() = default; // an uncommitted QSaveFile discards its file

void CompressedFileWriter::put(const char* data, qint64 size) {
    if (size > 0 && file_.write(data, size) != size)
        throw std::runtime_error(
            QStringLiteral("cannot write %1: %2").arg(file_.fileName(), file_.errorString()).toStdString());
}

void CompressedFileWriter::write(const QByteArray& bytes) {
    written_ += bytes.size();
    if (!encoder_) {
        put(bytes.constData(), bytes.size());
        return;
    }
    Encoder& e = *encoder_;
    if (e.codec == CompressedFile::Codec::Gzip) {
        e.zlib.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.constData()));
        e.zlib.avail_in = uInt(bytes.size());
        while (e.zlib.avail_in > 0) {
            e.zlib.next_out = reinterpret_cast<Bytef*>(e.output.data());
            e.zlib.avail_out = uInt(e.output.size());
            deflate(&e.zlib, Z_NO_FLUSH);
            put(e.output.data(), qint64(e.output.size() - e.zlib.avail_out));
        }
        return;
    }
    ZSTD_inBuffer in{bytes.constData(), std::size_t(bytes.size()), 0};
    while (in.pos < in.size) {
        ZSTD_outBuffer out{e.output.data(), e.output.size(), 0};
        const std::size_t status = ZSTD_compressStream2(e.zstd, &out, &in, ZSTD_e_continue);
        if (ZSTD_isError(status))
            throw std::runtime_error("zstd: " + std::string(ZSTD_getErrorName(status)));
        put(e.output.data(), qint64(out.pos));
    }
}

void CompressedFileWriter::commit() {
    if (encoder_) {
        Encoder& e = *encoder_;
        if (e.codec == CompressedFile::Codec::Gzip) {
            e.zlib.avail_in = 0;
            int status = Z_OK;
            while (status != Z_STREAM_END) {
                e.zlib.next_out = reinterpret_cast<Bytef*>(e.output.data());
                e.zlib.avail_out = uInt(e.output.size());
                status = deflate(&e.zlib, Z_FINISH);
                if (status != Z_OK && status != Z_STREAM_END && status != Z_BUF_ERROR)
                    throw std::runtime_error("zlib cannot finish " + file_.fileName().toStdString());
                put(e.output.data(), qint64(e.output.size() - e.zlib.avail_out));
            }
        } else {
            ZSTD_inBuffer in{nullptr, 0, 0};
            std::size_t left = 1;
            while (left != 0) {
                ZSTD_outBuffer out{e.output.data(), e.output.size(), 0};
                left = ZSTD_compressStream2(e.zstd, &out, &in, ZSTD_e_end);
                if (ZSTD_isError(left))
                    throw std::runtime_error("zstd: " + std::string(ZSTD_getErrorName(left)));
                put(e.output.data(), qint64(out.pos));
            }
        }
    }
    if (!file_.commit())
        throw std::runtime_error(
            QStringLiteral("cannot write %1: %2").arg(file_.fileName(), file_.errorString()).toStdString());
}

} // namespace sahaj::text
