#ifndef STRATA_CDECIMATE_H
#define STRATA_CDECIMATE_H

#include <stddef.h>

/// The first index of the smallest and of the largest value in
/// y[start ..< end], NaN skipped (ties to the first occurrence). Writes -1 for
/// an extreme no number was found for (every value NaN, or every value equal
/// to the starting bound: +inf for the minimum, -inf for the maximum).
/// Uses AVX2 when the processor has it, chosen once at run time.
void strata_extremes_f64(const double *y, long start, long end, long *low, long *high);

/// Whether the AVX2 kernel is in use (for benchmarks and tests).
int strata_extremes_uses_avx2(void);

#endif
