// Fuzz target: a run manifest's bytes (RunManifest::fromBytes, what loadFile reads), and for a manifest
// that is accepted, the round trip every peer relies on to agree on the run: its canonical bytes read back
// as the same manifest.
#include "core/run/RunManifest.h"
#include "fuzz/InputVerdict.h"

#include <cstdint>
#include <cstdlib>
#include <stdexcept>

using sahaj::fuzz::InputVerdict;
using sahaj::run::RunManifest;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const QByteArray bytes(reinterpret_cast<const char*>(data), static_cast<qsizetype>(size));
    RunManifest manifest;
    try {
        manifest = RunManifest::fromBytes(bytes, QStringLiteral("fuzz input"));
    } catch (const std::invalid_argument& e) {
        InputVerdict::refused(e);
        return 0;
    }
    InputVerdict::accepted();
    // Accepted: writing it must not fail, and what is written must read back unchanged.
    const RunManifest again =
        RunManifest::fromBytes(manifest.canonicalBytes(), QStringLiteral("canonical bytes"));
    if (!(again == manifest))
        std::abort();
    return 0;
}
