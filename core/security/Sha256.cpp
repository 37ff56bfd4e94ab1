#include "core/security/Sha256.h"

#include "core/security/OpenSslHandles.h"

#include <stdexcept>

namespace sahaj::security {

struct Sha256::Context {
    DigestContextHandle handle{EVP_MD_CTX_new()};
};

namespace {

[[noreturn]] void failed(const char* what) {
    throw std::runtime_error(std::string("SHA-256: ") + what + ": " + takeOpenSslErrors());
}

} // namespace

Sha256::Sha256() : context_(std::make_unique<Context>()) {
    if (!context_->handle || EVP_DigestInit_ex(context_->handle.get(), EVP_sha256(), nullptr) != 1)
        failed("cannot start a digest");
}

Sha256::~Sha256() = default;
Sha256::Sha256(Sha256&&) noexcept = default;
Sha256& Sha256::operator=(Sha256&&) noexcept = default;

void Sha256::add(QByteArrayView bytes) {
    if (!bytes.isEmpty() &&
        EVP_DigestUpdate(context_->handle.get(), bytes.data(), std::size_t(bytes.size())) != 1)
        failed("cannot add bytes");
}

QByteArray Sha256::result() const {
    // Finishing consumes a context: finish a copy, so that the stream can go on.
    DigestContextHandle copy(EVP_MD_CTX_new());
    if (!copy || EVP_MD_CTX_copy_ex(copy.get(), context_->handle.get()) != 1)
        failed("cannot copy the digest");
    QByteArray digest(32, Qt::Uninitialized);
    unsigned int length = 0;
    if (EVP_DigestFinal_ex(copy.get(), reinterpret_cast<unsigned char*>(digest.data()), &length) != 1 ||
        length != 32)
        failed("cannot finish the digest");
    return digest;
}

QString Sha256::hexOf(QByteArrayView bytes) {
    Sha256 hash;
    hash.add(bytes);
    return hash.hex();
}

} // namespace sahaj::security
