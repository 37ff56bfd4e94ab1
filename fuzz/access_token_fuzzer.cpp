// Fuzz target: an access token's bytes (AccessToken::fromBytes), as a peer presents it. An accepted token
// must re-encode to exactly the same bytes (the encoding is canonical: one token, one byte string), and
// check() against an organiser must answer without throwing, whatever the fields say.
#include "core/security/AccessToken.h"
#include "core/security/PeerId.h"
#include "fuzz/InputVerdict.h"

#include <cstdint>
#include <cstdlib>
#include <stdexcept>

using sahaj::fuzz::InputVerdict;
using sahaj::security::AccessToken;
using sahaj::security::PeerId;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const QByteArrayView bytes(reinterpret_cast<const char*>(data), static_cast<qsizetype>(size));
    try {
        const AccessToken token = AccessToken::fromBytes(bytes);
        InputVerdict::accepted();
        if (token.toBytes() != bytes)
            std::abort();
        // Any organiser, any time: an answer, never an exception.
        (void)token.check(PeerId::fromBytes(QByteArray(PeerId::kSize, '\x01')), token.runId(),
                          token.issuedAt());
    } catch (const std::invalid_argument& e) {
        InputVerdict::refused(e);
    }
    return 0;
}
