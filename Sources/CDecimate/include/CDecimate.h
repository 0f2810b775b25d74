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

/// Copies `n` doubles from `src` to `dst`, each infinity and NaN written as
/// a quiet NaN (a streaming graph's gap).
void strata_copy_finite(const double *src, double *dst, long n);

/// Summarises blocks `from ..< from + count` of `values`, each `blockSize`
/// long (at most 65,536 / 255 a chunk's offsets and counts allow): per
/// block, the smallest and largest number and the offsets in `values` of
/// their first occurrences (NaN skipped; the block's start and ±inf when the
/// block is all NaN), how many values are NaN, and its first and last
/// values. Results go to index `b` of each array.
void strata_summarize_blocks(const double *values, long from, long count, long blockSize, double *min, double *max,
                             unsigned short *minAt, unsigned short *maxAt, unsigned char *gaps, double *first, double *last);

/// Copies `blocks` blocks of 64 doubles from `src` to `dst` (as
/// `strata_copy_finite` does when `clean`) and summarises each as
/// `strata_summarize_blocks` does, in one pass, writing to index `b` (from 0)
/// of the summary arrays with offsets from `base`. With `stream`, and `dst`
/// 32-byte aligned, the stores bypass the cache.
void strata_copy_blocks(const double *src, double *dst, long blocks, int clean, int stream, double *min, double *max,
                        unsigned short *minAt, unsigned short *maxAt, unsigned char *gaps, double *first, double *last,
                        long base);

#endif
