#include "core/collab/HalfConversion.h"

#include <algorithm>
#include <bit>
#include <cstring>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>
#include <immintrin.h>
#define SAHAJ_HAVE_F16C_PATH 1
#endif

namespace sahaj::collab {

namespace {

constexpr float kHalfMax = 65504.0f;

// IEEE binary32 -> binary16, rounding to nearest even, by integer arithmetic on the bits (and one float
// addition for subnormal results, which the FPU rounds to nearest even by default).
std::uint16_t halfOf(float value) {
    std::uint32_t bits = std::bit_cast<std::uint32_t>(value);
    const std::uint32_t sign = (bits >> 16) & 0x8000u;
    bits &= 0x7fffffffu;
    if (bits > 0x7f800000u)
        return static_cast<std::uint16_t>(sign | 0x7e00u); // NaN stays NaN (quiet)
    if (bits >= 0x47800000u)                               // 65536 and above, infinity: infinity
        return static_cast<std::uint16_t>(sign | 0x7c00u);
    if (bits < 0x38800000u) {
        // Below the smallest normal half (2^-14): adding 0.5 puts the half's subnormal bits at the bottom
        // of the float's mantissa, rounded to nearest even by the addition itself.
        const float shifted = std::bit_cast<float>(bits) + 0.5f;
        return static_cast<std::uint16_t>(sign | (std::bit_cast<std::uint32_t>(shifted) - 0x3f000000u));
    }
    // Normal: rebias the exponent (127 -> 15) and drop 13 mantissa bits, rounding half to even; a carry
    // out of the mantissa correctly moves to the next exponent (up to infinity).
    const std::uint32_t odd = (bits >> 13) & 1u;
    bits += 0xc8000fffu + odd; // (15 - 127) << 23, modulo 2^32, plus the rounding bias
    return static_cast<std::uint16_t>(sign | (bits >> 13));
}

// IEEE binary16 -> binary32, exact.
float floatOf(std::uint16_t half) {
    const std::uint32_t sign = static_cast<std::uint32_t>(half & 0x8000u) << 16;
    const std::uint32_t exponent = (half >> 10) & 0x1fu;
    const std::uint32_t mantissa = half & 0x3ffu;
    if (exponent == 0x1fu) // infinity, NaN (payload kept)
        return std::bit_cast<float>(sign | 0x7f800000u | (mantissa << 13));
    if (exponent == 0) // zero and subnormals: mantissa * 2^-24, exact in float
        return std::bit_cast<float>(sign |
                                    std::bit_cast<std::uint32_t>(static_cast<float>(mantissa) * 0x1.0p-24f));
    return std::bit_cast<float>(sign | ((exponent + 112u) << 23) | (mantissa << 13));
}

#ifdef SAHAJ_HAVE_F16C_PATH
// Compiled for AVX + F16C whatever the build's target; called only after the CPU said it has them.
__attribute__((target("avx,f16c"))) void toHalvesF16c(const float* values, std::int64_t count, void* out) {
    auto* bytes = static_cast<unsigned char*>(out);
    const __m256 high = _mm256_set1_ps(kHalfMax);
    const __m256 low = _mm256_set1_ps(-kHalfMax);
    std::int64_t i = 0;
    for (; i + 8 <= count; i += 8) {
        // min/max return their second operand when either is NaN: value second, so that NaN stays NaN
        // (as std::clamp leaves it on the portable path) and receivers refuse it.
        const __m256 clamped = _mm256_max_ps(low, _mm256_min_ps(high, _mm256_loadu_ps(values + i)));
        const __m128i halves = _mm256_cvtps_ph(clamped, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
        _mm_storeu_si128(reinterpret_cast<__m128i*>(bytes + 2 * i), halves);
    }
    HalfConversion::toHalvesPortable(values + i, count - i, bytes + 2 * i);
}

__attribute__((target("avx,f16c"))) void toFloatsF16c(const void* halves, std::int64_t count, float* out) {
    const auto* bytes = static_cast<const unsigned char*>(halves);
    std::int64_t i = 0;
    for (; i + 8 <= count; i += 8) {
        const __m128i packed = _mm_loadu_si128(reinterpret_cast<const __m128i*>(bytes + 2 * i));
        _mm256_storeu_ps(out + i, _mm256_cvtph_ps(packed));
    }
    HalfConversion::toFloatsPortable(bytes + 2 * i, count - i, out + i);
}

// F16C from CPUID leaf 1 (ECX bit 29): clang's __builtin_cpu_supports knows no "f16c" (GCC's does).
bool cpuHasF16c() {
    static const bool has = [] {
        unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
        return __builtin_cpu_supports("avx") && __get_cpuid(1, &eax, &ebx, &ecx, &edx) != 0 &&
               (ecx & bit_F16C) != 0;
    }();
    return has;
}
#endif

} // namespace

void HalfConversion::toHalvesPortable(const float* values, std::int64_t count, void* out) {
    auto* bytes = static_cast<unsigned char*>(out);
    for (std::int64_t i = 0; i < count; ++i) {
        const std::uint16_t half = halfOf(std::clamp(values[i], -kHalfMax, kHalfMax));
        std::memcpy(bytes + 2 * i, &half, sizeof half);
    }
}

void HalfConversion::toFloatsPortable(const void* halves, std::int64_t count, float* out) {
    const auto* bytes = static_cast<const unsigned char*>(halves);
    for (std::int64_t i = 0; i < count; ++i) {
        std::uint16_t half = 0;
        std::memcpy(&half, bytes + 2 * i, sizeof half);
        out[i] = floatOf(half);
    }
}

void HalfConversion::toHalves(const float* values, std::int64_t count, void* out) {
#ifdef SAHAJ_HAVE_F16C_PATH
    if (cpuHasF16c())
        return toHalvesF16c(values, count, out);
#endif
    toHalvesPortable(values, count, out);
}

void HalfConversion::toFloats(const void* halves, std::int64_t count, float* out) {
#ifdef SAHAJ_HAVE_F16C_PATH
    if (cpuHasF16c())
        return toFloatsF16c(halves, count, out);
#endif
    toFloatsPortable(halves, count, out);
}

bool HalfConversion::usesF16c() {
#ifdef SAHAJ_HAVE_F16C_PATH
    return cpuHasF16c();
#else
    return false;
#endif
}

} // namespace sahaj::collab
