// The inner loop of M4 and MinMax decimation: the first minimum and maximum of
// a run of doubles. Written in C so that it can be compiled for AVX2 (four
// doubles a register, single-instruction blends) and chosen at run time, while
// the rest of the package targets baseline x86-64.
#include "CDecimate.h"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

#if defined(__x86_64__)
__attribute__((target("avx2")))
void strata_extremes_avx2(const double *y, long start, long end, long *low, long *high) {
    long i = start;
    double lowValue = __builtin_inf(), highValue = -__builtin_inf();
    long lo = -1, hi = -1;
    if (end - start >= 16) {
        // Two sets of four lanes, so that each compare waits on the vector two
        // steps back. Each lane keeps its extreme and where it first saw it.
        __m256d minA = _mm256_set1_pd(__builtin_inf()), maxA = _mm256_set1_pd(-__builtin_inf());
        __m256d minB = minA, maxB = maxA;
        __m256i none = _mm256_set1_epi64x(-1);
        __m256i minIA = none, maxIA = none, minIB = none, maxIB = none;
        __m256i indexA = _mm256_setr_epi64x(i, i + 1, i + 2, i + 3);
        __m256i indexB = _mm256_add_epi64(indexA, _mm256_set1_epi64x(4));
        __m256i step = _mm256_set1_epi64x(8);
        for (; i + 8 <= end; i += 8) {
            __m256d a = _mm256_loadu_pd(y + i), b = _mm256_loadu_pd(y + i + 4);
            // Ordered, quiet compares: NaN is never less nor greater.
            __m256d lessA = _mm256_cmp_pd(a, minA, _CMP_LT_OQ), moreA = _mm256_cmp_pd(a, maxA, _CMP_GT_OQ);
            __m256d lessB = _mm256_cmp_pd(b, minB, _CMP_LT_OQ), moreB = _mm256_cmp_pd(b, maxB, _CMP_GT_OQ);
            minA = _mm256_blendv_pd(minA, a, lessA);
            maxA = _mm256_blendv_pd(maxA, a, moreA);
            minB = _mm256_blendv_pd(minB, b, lessB);
            maxB = _mm256_blendv_pd(maxB, b, moreB);
            minIA = _mm256_castpd_si256(_mm256_blendv_pd(_mm256_castsi256_pd(minIA), _mm256_castsi256_pd(indexA), lessA));
            maxIA = _mm256_castpd_si256(_mm256_blendv_pd(_mm256_castsi256_pd(maxIA), _mm256_castsi256_pd(indexA), moreA));
            minIB = _mm256_castpd_si256(_mm256_blendv_pd(_mm256_castsi256_pd(minIB), _mm256_castsi256_pd(indexB), lessB));
            maxIB = _mm256_castpd_si256(_mm256_blendv_pd(_mm256_castsi256_pd(maxIB), _mm256_castsi256_pd(indexB), moreB));
            indexA = _mm256_add_epi64(indexA, step);
            indexB = _mm256_add_epi64(indexB, step);
        }
        double mv[8], xv[8];
        long long mi[8], xi[8];
        _mm256_storeu_pd(mv, minA); _mm256_storeu_pd(mv + 4, minB);
        _mm256_storeu_pd(xv, maxA); _mm256_storeu_pd(xv + 4, maxB);
        _mm256_storeu_si256((__m256i *)mi, minIA); _mm256_storeu_si256((__m256i *)(mi + 4), minIB);
        _mm256_storeu_si256((__m256i *)xi, maxIA); _mm256_storeu_si256((__m256i *)(xi + 4), maxIB);
        // Settle the lanes: the smallest (largest) value, the lower index on a tie.
        for (int l = 0; l < 8; l++) {
            if (mi[l] >= 0 && (mv[l] < lowValue || (mv[l] == lowValue && mi[l] < lo))) { lowValue = mv[l]; lo = (long)mi[l]; }
            if (xi[l] >= 0 && (xv[l] > highValue || (xv[l] == highValue && xi[l] < hi))) { highValue = xv[l]; hi = (long)xi[l]; }
        }
    }
    // The rest, later than every lane's index: strict compares keep ties earlier.
    for (; i < end; i++) {
        double v = y[i];
        if (v < lowValue) { lowValue = v; lo = i; }
        if (v > highValue) { highValue = v; hi = i; }
    }
    *low = lo;
    *high = hi;
}
#else
void strata_extremes_avx2(const double *y, long start, long end, long *low, long *high) {
    (void)y; (void)start; (void)end;
    *low = -1;
    *high = -1;
}
#endif

int strata_has_avx2(void) {
#if defined(__x86_64__)
    // Asked once (threads asking at once all store the same answer).
    static int known = -1;
    int answer = __atomic_load_n(&known, __ATOMIC_RELAXED);
    if (answer < 0) {
        __builtin_cpu_init();
        answer = __builtin_cpu_supports("avx2") ? 1 : 0;
        __atomic_store_n(&known, answer, __ATOMIC_RELAXED);
    }
    return answer;
#else
    return 0;
#endif
}
