#pragma once

#include <QFile>
#include <QIODevice>
#include <QString>

#include <memory>

namespace sahaj::text {

// A corpus file read through its compression, as a sequential read-only QIODevice: `.gz` through zlib
// (gzip, several members one after another as `cat a.gz b.gz` makes), `.zst` through zstd's reference
// library (several frames likewise), anything else as it is. Decompressed a buffer at a time, so memory
// stays bounded whatever the file's size. A truncated or damaged stream is a read error naming the file,
// never a silent end: a shard cut short must not train as if it were whole.
class CompressedFile : public QIODevice {
    Q_OBJECT
public:
    enum class Codec { None, Gzip, Zstd };

    // By the file name's last suffix.
    static Codec codecOf(const QString& path);
    // `path` without its compression suffix ("wiki.jsonl.zst" -> "wiki.jsonl"): what the content is.
    static QString contentName(const QString& path);

    explicit CompressedFile(const QString& path);
    ~CompressedFile() override;

    // ReadOnly only.
    bool open(OpenMode mode) override;
    void close() override;
    bool isSequential() const override { return true; }
    bool atEnd() const override;
    // Whether a read failed (errorString() says why): what was read before it may be cut short.
    bool failed() const { return failed_; }
    // Back to the first byte: the decompressor starts over. False when the file cannot be reopened.
    bool reset() override;

protected:
    qint64 readData(char* data, qint64 maxSize) override;
    qint64 writeData(const char* data, qint64 maxSize) override;

private:
    struct Decoder;
    bool startDecoder();
    qint64 fail(const QString& problem);

    QFile file_;
    Codec codec_;
    std::unique_ptr<Decoder> decoder_;
    bool ended_ = false; // the last byte of the content was handed out
    bool failed_ = false;
};

} // namespace sahaj::text
