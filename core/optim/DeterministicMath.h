#pragma once

#include <cstddef>
#include <cstdint>

namespace sahaj::optim {

// Arithmetic whose result is the same bits on every x86-64 (and any IEEE 754) CPU, for the optimiser step
// that every peer must compute identically from the same averaged gradient (docs/training.md,
// "bit-identical steps"). Only +, -, *, / and sqrt are used, each correctly rounded by IEEE 754, in an
// order fixed by this code; the library is compiled with -ffp-contract=off so that no compiler fuses a
// multiply and an add where one CPU has FMA and another has not. libm's pow, exp and log are avoided: glibc
// picks their code by the CPU (FMA variants), and their last bit may differ.
class DeterministicMath {
public:
    // base^exponent by repeated squaring.
    static double power(double base, std::uint64_t exponent);
    // The natural logarithm of a positive, finite x to within a few ulp: frexp's exact split, then the
    // atanh series of the mantissa. NaN for x <= 0 or non-finite x.
    static double log(double x);
    // The sum of values[i]^2 in double, accumulated in 8 interleaved partial sums combined in a fixed order
    // (vectorisable without reassociation, identical everywhere).
    static double sumOfSquares(const float* values, std::size_t count);
};

} // namespace sahaj::optim
