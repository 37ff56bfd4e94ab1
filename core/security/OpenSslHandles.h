#pragma once

// RAII owners for the OpenSSL objects this folder uses, and the text of OpenSSL's last error. Internal to
// core/security: included by .cpp files only, so OpenSSL headers stay out of the public headers.

#include <openssl/bio.h>
#include <openssl/evp.h>

#include <memory>
#include <string>

namespace sahaj::security {

struct OpenSslFree {
    void operator()(EVP_PKEY* key) const { EVP_PKEY_free(key); }
    void operator()(EVP_MD_CTX* context) const { EVP_MD_CTX_free(context); }
    void operator()(BIO* bio) const { BIO_free(bio); }
};

using KeyHandle = std::unique_ptr<EVP_PKEY, OpenSslFree>;
using DigestContextHandle = std::unique_ptr<EVP_MD_CTX, OpenSslFree>;
using BioHandle = std::unique_ptr<BIO, OpenSslFree>;

// The reasons queued on this thread's OpenSSL error stack, "; "-separated, and clears the stack (so a
// stale error never shows up in a later, unrelated message). "no details" when the stack is empty.
std::string takeOpenSslErrors();

} // namespace sahaj::security
