#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QString>

#include <memory>

namespace sahaj::security {

// SHA-256 of a stream of bytes, fed piece by piece, through OpenSSL's EVP interface: it uses the CPU's
// SHA instructions where there are some, several times faster than QCryptographicHash's portable code,
// and shards of gigabytes are hashed while they download and again when a cache is checked.
class Sha256 {
public:
    Sha256();
    ~Sha256();
    Sha256(Sha256&&) noexcept;
    Sha256& operator=(Sha256&&) noexcept;

    void add(QByteArrayView bytes);
    // The digest of everything added so far (32 bytes); adding may go on afterwards.
    QByteArray result() const;
    // The same as 64 lowercase hexadecimal digits, as run manifests write it.
    QString hex() const { return QString::fromLatin1(result().toHex()); }

    static QString hexOf(QByteArrayView bytes);

private:
    struct Context;
    std::unique_ptr<Context> context_;
};

} // namespace sahaj::security
