// Fuzz target: a join file's bytes (JoinFile::fromBytes), and the same bytes as a join link after its
// prefix (JoinFile::fromLink): what a volunteer reads before it trusts a run. Both verify the organiser's
// signature, so random inputs are refused; the corpus's valid file lets the fuzzer reach the manifest
// reader and the canonical-bytes check behind the signature.
#include "core/run/JoinFile.h"
#include "fuzz/InputVerdict.h"

#include <cstdint>
#include <stdexcept>

using sahaj::fuzz::InputVerdict;
using sahaj::run::JoinFile;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const QByteArray bytes(reinterpret_cast<const char*>(data), static_cast<qsizetype>(size));
    try {
        JoinFile::fromBytes(bytes, QStringLiteral("fuzz input"));
        InputVerdict::accepted();
    } catch (const std::invalid_argument& e) {
        InputVerdict::refused(e);
    }
    try {
        JoinFile::fromLink(QLatin1String(JoinFile::kLinkPrefix) + QString::fromLatin1(bytes));
        InputVerdict::accepted();
    } catch (const std::invalid_argument& e) {
        InputVerdict::refused(e);
    }
    return 0;
}
