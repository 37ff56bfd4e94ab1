#include "core/security/PrivateKey.h"

#include "core/security/OpenSslHandles.h"
#include "core/security/RuntimeFailure.h"
#include "core/security/SecretFile.h"

#include <QDir>

#include <openssl/crypto.h>
#include <openssl/pem.h>

#include <stdexcept>

namespace sahaj::security {

namespace {

QString openSslReason() {
    return QString::fromStdString(takeOpenSslErrors());
}

// Without a callback OpenSSL would prompt on the terminal for an encrypted key; refuse instead.
int refusePassphrase(char*, int, int, void*) {
    return -1;
}

// EVP_PKEY_get_raw_public_key or EVP_PKEY_get_raw_private_key: the same call shape for either half.
using RawHalfGetter = int (*)(const EVP_PKEY*, unsigned char*, size_t*);

// One half of `key` as raw bytes, asking `get` first for the size, then for the bytes; empty on failure.
QByteArray rawHalf(const EVP_PKEY* key, RawHalfGetter get) {
    size_t length = 0;
    if (get(key, nullptr, &length) != 1 || length == 0)
        return {};
    QByteArray raw(static_cast<qsizetype>(length), Qt::Uninitialized);
    if (get(key, reinterpret_cast<unsigned char*>(raw.data()), &length) != 1 ||
        length != static_cast<size_t>(raw.size()))
        return {};
    return raw;
}

} // namespace

void PrivateKey::KeyFree::operator()(evp_pkey_st* key) const {
    EVP_PKEY_free(key);
}

PrivateKey::PrivateKey(Key key, const QString& origin, const Kind& kind)
    : key_(std::move(key)), label_(QString::fromLatin1(kind.label)) {
    if (EVP_PKEY_is_a(key_.get(), kind.algorithm) != 1) {
        const char* type = EVP_PKEY_get0_type_name(key_.get());
        failWith(QStringLiteral("%1 holds a key of type %2; a %3 is an %4 key")
                     .arg(origin, QString::fromLatin1(type ? type : "unknown"),
                          QString::fromUtf8(kind.purpose), label_));
    }
}

PrivateKey PrivateKey::generate(const Kind& kind) {
    Key key(EVP_PKEY_Q_keygen(nullptr, nullptr, kind.algorithm));
    if (!key)
        failWith(QStringLiteral("cannot generate an %1 key: %2")
                     .arg(QString::fromLatin1(kind.label), openSslReason()));
    return PrivateKey(std::move(key), QStringLiteral("the generated key"), kind);
}

PrivateKey PrivateKey::fromPem(QByteArrayView pem, const QString& origin, const Kind& kind) {
    if (pem.size() > kMaxPemBytes)
        failWith(
            QStringLiteral("%1 is %2 bytes, too large to be a key").arg(origin, QString::number(pem.size())));
    // An empty view may have no data pointer, which OpenSSL takes for "no buffer".
    BioHandle bio(BIO_new_mem_buf(pem.isEmpty() ? "" : pem.data(), static_cast<int>(pem.size())));
    if (!bio)
        failWith(QStringLiteral("cannot read %1: out of memory").arg(origin));
    Key key(PEM_read_bio_PrivateKey(bio.get(), nullptr, refusePassphrase, nullptr));
    if (!key)
        failWith(QStringLiteral(
                     "%1 is not a readable unencrypted PEM private key (%2). Sahaj never replaces a key "
                     "file: restore it from a backup, or delete it to start with %3")
                     .arg(origin, openSslReason(), QString::fromUtf8(kind.fresh)));
    return PrivateKey(std::move(key), origin, kind);
}

PrivateKey PrivateKey::loadOrCreate(const QString& directory, const char* fileName, const Kind& kind) {
    const QString fileKind = QString::fromUtf8(kind.fileKind);
    if (directory.isEmpty())
        throw std::invalid_argument(
            QStringLiteral("the name of the folder for the %1 is empty").arg(fileKind).toStdString());
    if (!QDir().mkpath(directory))
        failWith(QStringLiteral("cannot create the folder %1 for the %2").arg(directory, fileKind));
    const SecretFile file(QDir(directory).filePath(QString::fromUtf8(fileName)), fileKind, kMaxPemBytes,
                          SecretFile::Access::OwnerOnly);
    const QString origin = QStringLiteral("%1 %2").arg(fileKind, file.path());
    if (auto pem = file.read())
        return fromPem(*pem, origin, kind);
    PrivateKey created = generate(kind);
    QByteArray pem = created.toPem();
    const bool written = file.createExclusive(pem);
    pem.fill('\0'); // best effort: no copy of the secret left in freed memory
    if (written)
        return created;
    // Another process created the file between our check and our write: its key is the one to use.
    if (auto theirs = file.read())
        return fromPem(*theirs, origin, kind);
    failWith(QStringLiteral("%1 vanished while being created").arg(origin));
}

QByteArray PrivateKey::toPem() const {
    BioHandle bio(BIO_new(BIO_s_mem()));
    if (!bio || PEM_write_bio_PrivateKey(bio.get(), key_.get(), nullptr, nullptr, 0, nullptr, nullptr) != 1)
        failWith(QStringLiteral("cannot encode the %1 key: %2").arg(label_, openSslReason()));
    char* data = nullptr;
    const long size = BIO_get_mem_data(bio.get(), &data);
    QByteArray pem(data, static_cast<qsizetype>(size));
    OPENSSL_cleanse(data, static_cast<size_t>(size));
    return pem;
}

QByteArray PrivateKey::rawPublicKey() const {
    QByteArray raw = rawHalf(key_.get(), EVP_PKEY_get_raw_public_key);
    if (raw.isEmpty())
        failWith(
            QStringLiteral("cannot read the public half of the %1 key: %2").arg(label_, openSslReason()));
    return raw;
}

QByteArray PrivateKey::rawPrivateKey() const {
    QByteArray raw = rawHalf(key_.get(), EVP_PKEY_get_raw_private_key);
    if (raw.isEmpty())
        failWith(QStringLiteral("cannot read the %1 secret key: %2").arg(label_, openSslReason()));
    return raw;
}

} // namespace sahaj::security
