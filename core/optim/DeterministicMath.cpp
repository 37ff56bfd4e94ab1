#include "core/optim/DeterministicMath.h"

#include <cmath>
#include <limits>

namespace sahaj::optim {

double DeterministicMath::power(double base, std::uint64_t exponent) {
    double result = 1.0;
    double square = base;
    while (exponent != 0) {
        if (exponent & 1u)
            result *= square;
        square *= square;
        exponent >>= 1u;
    }
    return result;
}

double DeterministicMath::log(double x) {
    if (!(x > 0.0) || !std::isfinite(x))
        return std::numeric_limits<double>::quiet_NaN();
    int exponent = 0;
    double mantissa = std::frexp(x, &exponent); // exact: x = mantissa * 2^exponent, mantissa in [0.5, 1)
    // Into [sqrt(1/2), sqrt(2)), so that t below stays within +-0.172 and the series converges fast.
    if (mantissa < 0.70710678118654752440) {
        mantissa *= 2.0;
        --exponent;
    }
    // ln m = 2 atanh(t) = 2 (t + t^3/3 + t^5/5 + ...), t = (m - 1) / (m + 1); 0.172^2 = 0.0296, so 11 terms
    // leave less than 1e-17.
    const double t = (mantissa - 1.0) / (mantissa + 1.0);
    const double t2 = t * t;
    double sum = 0.0;
    for (int k = 21; k >= 1; k -= 2)
        sum = sum * t2 + 1.0 / static_cast<double>(k);
    constexpr double kLn2 = 0.69314718055994530942;
    return static_cast<double>(exponent) * kLn2 + 2.0 * t * sum;
}

double DeterministicMath::sumOfSquares(const float* values, std::size_t count) {
    constexpr std::size_t kLanes = 8;
    double partial[kLanes] = {};
    std::size_t i = 0;
    for (; i + kLanes <= count; i += kLanes)
        for (std::size_t lane = 0; lane < kLanes; ++lane) {
            const double value = values[i + lane];
            partial[lane] += value * value;
        }
    for (std::size_t lane = 0; i < count; ++i, ++lane) {
        const double value = values[i];
        partial[lane] += value * value;
    }
    // A fixed tree: ((0+1)+(2+3))+((4+5)+(6+7)).
    return ((partial[0] + partial[1]) + (partial[2] + partial[3])) +
           ((partial[4] + partial[5]) + (partial[6] + partial[7]));
}

} // namespace sahaj::optim
