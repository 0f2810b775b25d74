#ifndef STRATA_CDECIMATE_H
#define STRATA_CDECIMATE_H

/// Whether the processor has AVX2 (asked once).
int strata_has_avx2(void);

/// The first index of the smallest and of the largest value in
/// y[start ..< end], NaN skipped (ties to the first occurrence), with AVX2:
/// call only when `strata_has_avx2()`. Writes -1 for an extreme no number
/// was found for (every value NaN, or every value equal to the starting
/// bound: +inf for the minimum, -inf for the maximum).
void strata_extremes_avx2(const double *y, long start, long end, long *low, long *high);

#endif
