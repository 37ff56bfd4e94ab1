#pragma once

#include "core/text/CompressedFile.h"

#include <QByteArray>
#include <QSaveFile>
#include <QString>

#include <memory>

namespace sahaj::text {

// Writes a file through a compression (gzip through zlib, zstd through its reference library, or none),
// a buffer at a time, into a QSaveFile: the file appears under its name only once commit() succeeds, so
// an interrupted write never leaves a shard that looks whole.
class CompressedFileWriter {
public:
    // Throws std::runtime_error naming the file when it cannot be created or the compressor not started.
    CompressedFileWriter(const QString& path, CompressedFile::Codec codec, int level = 0);
    ~CompressedFileWriter();
    CompressedFileWriter(const CompressedFileWriter&) = delete;
    CompressedFileWriter& operator=(const CompressedFileWriter&) = delete;

    // Throws std::runtime_error on a write error (a full disk) naming the file.
    void write(const QByteArray& bytes);
    // Flushes the compressor and renames the file into place. Throws std::runtime_error on failure.
    void commit();
    // Bytes given to write() so far (before compression).
    qint64 written() const { return written_; }

private:
    struct Encoder;
    void put(const char* data, qint64 size);

    QSaveFile file_;
    std::unique_ptr<Encoder> encoder_;
    qint64 written_ = 0;
};

} // namespace sahaj::text
