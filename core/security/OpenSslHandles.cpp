#include "core/security/OpenSslHandles.h"

#include <openssl/err.h>

namespace sahaj::security {

std::string takeOpenSslErrors() {
    std::string text;
    while (const unsigned long code = ERR_get_error()) {
        char buffer[256];
        ERR_error_string_n(code, buffer, sizeof buffer);
        if (!text.empty())
            text += "; ";
        text += buffer;
    }
    return text.empty() ? std::string("no details") : text;
}

} // namespace sahaj::security
