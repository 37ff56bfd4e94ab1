#include "core/security/PeerIdentity.h"

#include "core/security/IdentityKeyFile.h"
#include "core/security/OpenSslHandles.h"

#include <QDir>

#include <openssl/err.h>
#include <openssl/pem.h>

#include <stdexcept>

namespace sahaj::security {

namespace {

[[noreturn]] void fail(const QString& message) {
    throw std::runtime_error(message.toStdString());
}

QString openSslReason() {
    return QString::fromStdString(takeOpenSslErrors());
}

// Without a callback OpenSSL would prompt on the terminal for an encrypted key; refuse instead.
int refusePassphrase(char*, int, int, void*) {
    return -1;
}

} // namespace

void PeerIdentity::KeyFree::operator()(evp_pkey_st* key) const {
    EVP_PKEY_free(key);
}

PeerIdentity::PeerIdentity(Key key, const QString& origin) : key_(std::move(key)) {
    if (EVP_PKEY_get_base_id(key_.get()) != EVP_PKEY_ED25519) {
        const char* type = EVP_PKEY_get0_type_name(key_.get());
        fail(QStringLiteral("%1 holds a key of type %2; a Sahaj identity is an Ed25519 key")
                 .arg(origin, QString::fromLatin1(type ? type : "non-Ed25519")));
    }
    unsigned char raw[PeerId::kSize];
    size_t length = sizeof raw;
    if (EVP_PKEY_get_raw_public_key(key_.get(), raw, &length) != 1 || length != sizeof raw)
        fail(QStringLiteral("cannot read the public key of %1: %2").arg(origin, openSslReason()));
    id_ = PeerId::fromBytes(QByteArrayView(raw, static_cast<qsizetype>(length)));
}

PeerIdentity::PeerIdentity(PeerIdentity&&) noexcept = default;
PeerIdentity& PeerIdentity::operator=(PeerIdentity&&) noexcept = default;
PeerIdentity::~PeerIdentity() = default;

PeerIdentity PeerIdentity::generate() {
    Key key(EVP_PKEY_Q_keygen(nullptr, nullptr, "ED25519"));
    if (!key)
        fail(QStringLiteral("cannot generate an Ed25519 key: %1").arg(openSslReason()));
    return PeerIdentity(std::move(key), QStringLiteral("the generated key"));
}

PeerIdentity PeerIdentity::fromPem(QByteArrayView pem, const QString& origin) {
    if (pem.size() > IdentityKeyFile::kMaxBytes)
        fail(QStringLiteral("%1 is %2 bytes, too large to be a key").arg(origin).arg(pem.size()));
    // An empty view may have no data pointer, which OpenSSL takes for "no buffer".
    BioHandle bio(BIO_new_mem_buf(pem.isEmpty() ? "" : pem.data(), static_cast<int>(pem.size())));
    if (!bio)
        fail(QStringLiteral("cannot read %1: out of memory").arg(origin));
    Key key(PEM_read_bio_PrivateKey(bio.get(), nullptr, refusePassphrase, nullptr));
    if (!key)
        fail(QStringLiteral("%1 is not a readable unencrypted PEM private key (%2). Sahaj never replaces an "
                            "identity file: restore it from a backup, or delete it to start with a new "
                            "identity (other peers will then see a new peer id)")
                 .arg(origin, openSslReason()));
    return PeerIdentity(std::move(key), origin);
}

PeerIdentity PeerIdentity::loadOrCreate(const QString& directory) {
    if (directory.isEmpty())
        throw std::invalid_argument("PeerIdentity::loadOrCreate: the identity folder name is empty");
    if (!QDir().mkpath(directory))
        fail(QStringLiteral("cannot create the identity folder %1").arg(directory));
    const QString path = QDir(directory).filePath(QString::fromLatin1(kKeyFileName));
    if (auto pem = IdentityKeyFile::read(path))
        return fromPem(*pem, path);
    PeerIdentity created = generate();
    QByteArray pem = created.privateKeyPem();
    const bool written = IdentityKeyFile::createExclusive(path, pem);
    pem.fill('\0'); // best effort: no copy of the secret left in freed memory
    if (written)
        return created;
    // Another process created the file between our check and our write: its key is the identity.
    if (auto theirs = IdentityKeyFile::read(path))
        return fromPem(*theirs, path);
    fail(QStringLiteral("identity key file %1 vanished while being created").arg(path));
}

QByteArray PeerIdentity::privateKeyPem() const {
    BioHandle bio(BIO_new(BIO_s_mem()));
    if (!bio || PEM_write_bio_PrivateKey(bio.get(), key_.get(), nullptr, nullptr, 0, nullptr, nullptr) != 1)
        fail(QStringLiteral("cannot encode the identity key: %1").arg(openSslReason()));
    char* data = nullptr;
    const long size = BIO_get_mem_data(bio.get(), &data);
    QByteArray pem(data, static_cast<qsizetype>(size));
    OPENSSL_cleanse(data, static_cast<size_t>(size));
    return pem;
}

QByteArray PeerIdentity::sign(QByteArrayView message) const {
    DigestContextHandle context(EVP_MD_CTX_new());
    QByteArray signature(kSignatureSize, Qt::Uninitialized);
    size_t length = static_cast<size_t>(signature.size());
    // Ed25519 is a one-shot scheme: no digest is named, the whole message goes in one call.
    if (!context || EVP_DigestSignInit(context.get(), nullptr, nullptr, nullptr, key_.get()) != 1 ||
        EVP_DigestSign(context.get(), reinterpret_cast<unsigned char*>(signature.data()), &length,
                       reinterpret_cast<const unsigned char*>(message.data()),
                       static_cast<size_t>(message.size())) != 1 ||
        length != static_cast<size_t>(kSignatureSize))
        fail(QStringLiteral("Ed25519 signing failed: %1").arg(openSslReason()));
    return signature;
}

bool PeerIdentity::verify(const PeerId& owner, QByteArrayView message, QByteArrayView signature) {
    if (signature.size() != kSignatureSize)
        return false;
    KeyHandle key(
        EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, nullptr, owner.raw().data(), owner.raw().size()));
    DigestContextHandle context(EVP_MD_CTX_new());
    const bool valid =
        key && context && EVP_DigestVerifyInit(context.get(), nullptr, nullptr, nullptr, key.get()) == 1 &&
        EVP_DigestVerify(context.get(), reinterpret_cast<const unsigned char*>(signature.data()),
                         static_cast<size_t>(signature.size()),
                         reinterpret_cast<const unsigned char*>(message.data()),
                         static_cast<size_t>(message.size())) == 1;
    if (!valid)
        ERR_clear_error(); // a forged signature is an answer, not an error to report later
    return valid;
}

} // namespace sahaj::security
