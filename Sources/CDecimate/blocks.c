// Bulk appends to a streaming graph's sample buffer: copying samples in (with
// the graph's rule that a non-finite sample is a gap) and summarising each
// run of 64 as it fills. Written in C for AVX2, chosen at run time, as
// extremes.c is; the portable versions are plain loops.
#include "CDecimate.h"
#include <math.h>
#include <string.h>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

static void copy_finite_portable(const double *src, double *dst, long n) {
    for (long i = 0; i < n; i++) {
        double v = src[i];
        dst[i] = isfinite(v) ? v : NAN;
    }
}

static void summarize_portable(const double *v, long n, double *min, double *max, unsigned short *minAt,
                               unsigned short *maxAt, unsigned char *gaps, double *first, double *last, long base) {
    double lo = __builtin_inf(), hi = -__builtin_inf();
    long loAt = -1, hiAt = -1, nan = 0;
    for (long i = 0; i < n; i++) {
        double x = v[i];
        if (x != x) { nan++; continue; }
        if (loAt < 0 || x < lo) { lo = x; loAt = i; }
        if (hiAt < 0 || x > hi) { hi = x; hiAt = i; }
    }
    *min = lo;
    *max = hi;
    *minAt = (unsigned short)(base + (loAt < 0 ? 0 : loAt));
    *maxAt = (unsigned short)(base + (hiAt < 0 ? 0 : hiAt));
    *gaps = (unsigned char)nan;
    *first = v[0];
    *last = v[n - 1];
}

#if defined(__x86_64__)
// x where it is finite, else NaN: |x| < inf is false for the infinities
// and NaN alike.
__attribute__((target("avx2")))
static inline __m256d finite_or_nan(__m256d x) {
    const __m256d abs = _mm256_castsi256_pd(_mm256_set1_epi64x(0x7fffffffffffffffLL));
    const __m256d finite = _mm256_cmp_pd(_mm256_and_pd(x, abs), _mm256_set1_pd(__builtin_inf()), _CMP_LT_OQ);
    return _mm256_blendv_pd(_mm256_set1_pd(__builtin_nan("")), x, finite);
}

__attribute__((target("avx2")))
static void copy_finite_avx2(const double *src, double *dst, long n) {
    long i = 0;
    for (; i + 4 <= n; i += 4) _mm256_storeu_pd(dst + i, finite_or_nan(_mm256_loadu_pd(src + i)));
    copy_finite_portable(src + i, dst + i, n - i);
}

// Whole blocks copied and summarised in one pass: each block of 64 is
// loaded once, its extremes and NaNs found in registers (a NaN operand of
// min_pd or max_pd gives the other), and stored, with non-temporal stores
// when asked (a big append that will not be read soon is not worth the
// cache it would take, nor the read of the lines it overwrites). With no
// `dst`, blocks already stored are only summarised.
__attribute__((target("avx2,bmi")))
static void copy_blocks_avx2(const double *src, double *dst, long blocks, int clean, int stream, double *min, double *max,
                             unsigned short *minAt, unsigned short *maxAt, unsigned char *gaps, double *first, double *last,
                             long base) {
    const __m256d inf = _mm256_set1_pd(__builtin_inf());
    for (long b = 0; b < blocks; b++) {
        const double *s = src + b * 64;
        // Per group of eight (two vectors), the lane-wise extremes, kept to
        // find where the block's extremes first occur without a second look
        // at the samples.
        __m256d groupMin[8], groupMax[8];
        __m256d lo = inf, hi = _mm256_set1_pd(-__builtin_inf());
        // NaNs counted per lane: an unordered compare is -1 where NaN.
        __m256i nans = _mm256_setzero_si256();
        for (int g = 0; g < 8; g++) {
            __m256d x = _mm256_loadu_pd(s + 8 * g), y = _mm256_loadu_pd(s + 8 * g + 4);
            if (clean) {
                x = finite_or_nan(x);
                y = finite_or_nan(y);
            }
            __m256d xNaN = _mm256_cmp_pd(x, x, _CMP_UNORD_Q), yNaN = _mm256_cmp_pd(y, y, _CMP_UNORD_Q);
            // min_pd(a, b) gives b when either is NaN: so a NaN x gives y,
            // and where y is NaN, x is taken instead. Lanes where both are
            // NaN stay NaN and never match an extreme.
            __m256d m = _mm256_blendv_pd(_mm256_min_pd(x, y), x, yNaN);
            __m256d M = _mm256_blendv_pd(_mm256_max_pd(x, y), x, yNaN);
            groupMin[g] = m;
            groupMax[g] = M;
            lo = _mm256_min_pd(m, lo);
            hi = _mm256_max_pd(M, hi);
            nans = _mm256_sub_epi64(nans, _mm256_castpd_si256(xNaN));
            nans = _mm256_sub_epi64(nans, _mm256_castpd_si256(yNaN));
            if (stream) {
                _mm256_stream_pd(dst + b * 64 + 8 * g, x);
                _mm256_stream_pd(dst + b * 64 + 8 * g + 4, y);
            } else if (dst) {
                _mm256_storeu_pd(dst + b * 64 + 8 * g, x);
                _mm256_storeu_pd(dst + b * 64 + 8 * g + 4, y);
            }
        }
        __m128d l2 = _mm_min_pd(_mm256_castpd256_pd128(lo), _mm256_extractf128_pd(lo, 1));
        __m128d h2 = _mm_max_pd(_mm256_castpd256_pd128(hi), _mm256_extractf128_pd(hi, 1));
        double l = _mm_cvtsd_f64(_mm_min_sd(l2, _mm_unpackhi_pd(l2, l2)));
        double h = _mm_cvtsd_f64(_mm_max_sd(h2, _mm_unpackhi_pd(h2, h2)));
        __m128i n2 = _mm_add_epi64(_mm256_castsi256_si128(nans), _mm256_extracti128_si256(nans, 1));
        int count = (int)(_mm_cvtsi128_si64(n2) + _mm_extract_epi64(n2, 1));
        long loAt = -1, hiAt = -1;
        if (count < 64) {
            // The first group holding each extreme, from one bit a group;
            // then, in it, the first vector and lane (from the source, still
            // in the first-level cache: a cleaned infinity never matches).
            __m256d lv = _mm256_set1_pd(l), hv = _mm256_set1_pd(h);
            unsigned lowGroups = 0, highGroups = 0;
            for (int g = 0; g < 8; g++) {
                lowGroups |= (unsigned)(_mm256_movemask_pd(_mm256_cmp_pd(groupMin[g], lv, _CMP_EQ_OQ)) != 0) << g;
                highGroups |= (unsigned)(_mm256_movemask_pd(_mm256_cmp_pd(groupMax[g], hv, _CMP_EQ_OQ)) != 0) << g;
            }
            if (lowGroups) {
                int g = __builtin_ctz(lowGroups);
                unsigned m = (unsigned)_mm256_movemask_pd(_mm256_cmp_pd(_mm256_loadu_pd(s + 8 * g), lv, _CMP_EQ_OQ))
                    | (unsigned)_mm256_movemask_pd(_mm256_cmp_pd(_mm256_loadu_pd(s + 8 * g + 4), lv, _CMP_EQ_OQ)) << 4;
                loAt = 8 * g + __builtin_ctz(m);
            }
            if (highGroups) {
                int g = __builtin_ctz(highGroups);
                unsigned m = (unsigned)_mm256_movemask_pd(_mm256_cmp_pd(_mm256_loadu_pd(s + 8 * g), hv, _CMP_EQ_OQ))
                    | (unsigned)_mm256_movemask_pd(_mm256_cmp_pd(_mm256_loadu_pd(s + 8 * g + 4), hv, _CMP_EQ_OQ)) << 4;
                hiAt = 8 * g + __builtin_ctz(m);
            }
        }
        long at = base + b * 64;
        min[b] = loAt < 0 ? __builtin_inf() : s[loAt];
        max[b] = hiAt < 0 ? -__builtin_inf() : s[hiAt];
        minAt[b] = (unsigned short)(at + (loAt < 0 ? 0 : loAt));
        maxAt[b] = (unsigned short)(at + (hiAt < 0 ? 0 : hiAt));
        gaps[b] = (unsigned char)count;
        // Only read where the block has no gap: as stored, uncleaned.
        first[b] = s[0];
        last[b] = s[63];
    }
    if (stream) _mm_sfence();
}
#endif

void strata_copy_finite(const double *src, double *dst, long n) {
#if defined(__x86_64__)
    if (strata_has_avx2()) { copy_finite_avx2(src, dst, n); return; }
#endif
    copy_finite_portable(src, dst, n);
}

void strata_summarize_blocks(const double *values, long from, long count, long blockSize, double *min, double *max,
                             unsigned short *minAt, unsigned short *maxAt, unsigned char *gaps, double *first, double *last) {
#if defined(__x86_64__)
    if (blockSize == 64 && strata_has_avx2()) {
        copy_blocks_avx2(values + from * 64, 0, count, 0, 0, min + from, max + from, minAt + from, maxAt + from, gaps + from,
                         first + from, last + from, from * 64);
        return;
    }
#endif
    for (long b = from; b < from + count; b++) {
        summarize_portable(values + b * blockSize, blockSize, min + b, max + b, minAt + b, maxAt + b, gaps + b, first + b,
                           last + b, b * blockSize);
    }
}

void strata_copy_blocks(const double *src, double *dst, long blocks, int clean, int stream, double *min, double *max,
                        unsigned short *minAt, unsigned short *maxAt, unsigned char *gaps, double *first, double *last,
                        long base) {
#if defined(__x86_64__)
    if (strata_has_avx2()) {
        // Streaming stores need 32-byte alignment.
        copy_blocks_avx2(src, dst, blocks, clean, stream && dst && ((unsigned long)dst & 31) == 0, min, max, minAt, maxAt, gaps, first,
                         last, base);
        return;
    }
#endif
    if (clean) {
        copy_finite_portable(src, dst, blocks * 64);
    } else {
        memmove(dst, src, (unsigned long)blocks * 64 * sizeof(double));
    }
    for (long b = 0; b < blocks; b++) {
        summarize_portable(dst + b * 64, 64, min + b, max + b, minAt + b, maxAt + b, gaps + b, first + b, last + b,
                           base + b * 64);
    }
}
