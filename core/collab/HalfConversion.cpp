#include "core/collab/HalfConversion.h"

#include <c10/util/Half.h>

#include <algorithm>
#include <cstring>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define SAHAJ_HAVE_F16C_PATH 1
#endif

namespace sahaj::collab {

namespace {

constexpr float kHalfMax = 65504.0f;

#ifdef SAHAJ_HAVE_F16C_PATH
// Compiled for AVX + F16C whatever the build's target; called only after the CPU said it has them.
__attribute__((target("avx,f16c"))) void toHalvesF16c(const float* values, std::int64_t count,
                                                      std::uint16_t* out) {
    const __m256 high = _mm256_set1_ps(kHalfMax);
    const __m256 low = _mm256_set1_ps(-kHalfMax);
    std::int64_t i = 0;
    for (; i + 8 <= count; i += 8) {
        // min/max return their second operand when either is NaN: value second, so that NaN stays NaN
        // (as std::clamp leaves it on the portable path) and receivers refuse it.
        const __m256 clamped = _mm256_max_ps(low, _mm256_min_ps(high, _mm256_loadu_ps(values + i)));
        const __m128i halves = _mm256_cvtps_ph(clamped, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
        _mm_storeu_si128(reinterpret_cast<__m128i*>(out + i), halves);
    }
    HalfConversion::toHalvesPortable(values + i, count - i, out + i);
}

__attribute__((target("avx,f16c"))) void toFloatsF16c(const std::uint16_t* halves, std::int64_t count,
                                                      float* out) {
    std::int64_t i = 0;
    for (; i + 8 <= count; i += 8) {
        const __m128i packed = _mm_loadu_si128(reinterpret_cast<const __m128i*>(halves + i));
        _mm256_storeu_ps(out + i, _mm256_cvtph_ps(packed));
    }
    HalfConversion::toFloatsPortable(halves + i, count - i, out + i);
}

bool cpuHasF16c() {
    static const bool has = __builtin_cpu_supports("avx") && __builtin_cpu_supports("f16c");
    return has;
}
#endif

} // namespace

void HalfConversion::toHalvesPortable(const float* values, std::int64_t count, std::uint16_t* out) {
    for (std::int64_t i = 0; i < count; ++i) {
        const c10::Half half(std::clamp(values[i], -kHalfMax, kHalfMax));
        out[i] = half.x;
    }
}

void HalfConversion::toFloatsPortable(const std::uint16_t* halves, std::int64_t count, float* out) {
    for (std::int64_t i = 0; i < count; ++i)
        out[i] = static_cast<float>(c10::Half(halves[i], c10::Half::from_bits()));
}

void HalfConversion::toHalves(const float* values, std::int64_t count, std::uint16_t* out) {
#ifdef SAHAJ_HAVE_F16C_PATH
    if (cpuHasF16c())
        return toHalvesF16c(values, count, out);
#endif
    toHalvesPortable(values, count, out);
}

void HalfConversion::toFloats(const std::uint16_t* halves, std::int64_t count, float* out) {
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
