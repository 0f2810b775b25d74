// The streaming benchmark's data: random walks generated a frame at a time.
// The generator is the benchmark's own cost (it runs in the timed frame), so
// it is vectorised where the processor allows, leaving the chart's work to
// dominate the figures.
#include "CBenchData.h"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

static const uint64_t gamma_step = 0x9E3779B97F4A7C15ULL;

static inline uint64_t mix(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

// Two steps from each 64 bits: the high half, then the low half, each a
// 32-bit fraction.
static void walk_portable(uint64_t *state, double *value, double *out, long n) {
    uint64_t s = *state;
    double v = *value;
    for (long i = 0; i + 1 < n; i += 2) {
        s += gamma_step;
        uint64_t z = mix(s);
        v += (double)(z >> 32) * 0x1p-32 - 0.5;
        out[i] = v;
        v += (double)(z & 0xffffffffULL) * 0x1p-32 - 0.5;
        out[i + 1] = v;
    }
    if (n & 1) {
        s += gamma_step;
        v += (double)(mix(s) >> 32) * 0x1p-32 - 0.5;
        out[n - 1] = v;
    }
    *state = s;
    *value = v;
}

#if defined(__x86_64__)
// Sixteen steps a round: eight outputs of SplitMix64, each split in two.
__attribute__((target("avx512f,avx512dq")))
static void walk_avx512(uint64_t *state, double *value, double *out, long n) {
    long i = 0;
    uint64_t s = *state;
    double v = *value;
    if (n >= 16) {
        __m512i lanes = _mm512_mullo_epi64(_mm512_setr_epi64(1, 2, 3, 4, 5, 6, 7, 8), _mm512_set1_epi64((long long)gamma_step));
        __m512i base = _mm512_add_epi64(_mm512_set1_epi64((long long)s), lanes);
        const __m512i step8 = _mm512_set1_epi64((long long)(gamma_step * 8));
        const __m512i m1 = _mm512_set1_epi64((long long)0xBF58476D1CE4E5B9ULL), m2 = _mm512_set1_epi64((long long)0x94D049BB133111EBULL);
        const __m512i low = _mm512_set1_epi64(0xffffffffLL);
        const __m512d scale = _mm512_set1_pd(0x1p-32), half = _mm512_set1_pd(0.5);
        const __m512i last = _mm512_set1_epi64(7);
        const __m512d zero = _mm512_setzero_pd();
        // Output k of a round is step k: the high half of lane k/2 for even
        // k, its low half for odd k.
        const __m512i firstEight = _mm512_setr_epi64(0, 8, 1, 9, 2, 10, 3, 11), lastEight = _mm512_setr_epi64(4, 12, 5, 13, 6, 14, 7, 15);
        __m512d carry = _mm512_set1_pd(v);
        for (; i + 16 <= n; i += 16) {
            __m512i z = base;
            z = _mm512_mullo_epi64(_mm512_xor_si512(z, _mm512_srli_epi64(z, 30)), m1);
            z = _mm512_mullo_epi64(_mm512_xor_si512(z, _mm512_srli_epi64(z, 27)), m2);
            z = _mm512_xor_si512(z, _mm512_srli_epi64(z, 31));
            __m512d hi = _mm512_fmsub_pd(_mm512_cvtepu64_pd(_mm512_srli_epi64(z, 32)), scale, half);
            __m512d lo = _mm512_fmsub_pd(_mm512_cvtepu64_pd(_mm512_and_si512(z, low)), scale, half);
            __m512d parts[2] = {_mm512_permutex2var_pd(hi, firstEight, lo), _mm512_permutex2var_pd(hi, lastEight, lo)};
            for (int p = 0; p < 2; p++) {
                __m512d x = parts[p];
                // Sums within the vector: by 1, 2 and 4 lanes.
                x = _mm512_add_pd(x, _mm512_castsi512_pd(_mm512_alignr_epi64(_mm512_castpd_si512(x), _mm512_castpd_si512(zero), 7)));
                x = _mm512_add_pd(x, _mm512_castsi512_pd(_mm512_alignr_epi64(_mm512_castpd_si512(x), _mm512_castpd_si512(zero), 6)));
                x = _mm512_add_pd(x, _mm512_castsi512_pd(_mm512_alignr_epi64(_mm512_castpd_si512(x), _mm512_castpd_si512(zero), 4)));
                x = _mm512_add_pd(x, carry);
                _mm512_storeu_pd(out + i + 8 * p, x);
                carry = _mm512_permutexvar_pd(last, x);
            }
            base = _mm512_add_epi64(base, step8);
        }
        s += gamma_step * (uint64_t)(i / 2);
        v = _mm512_cvtsd_f64(carry);
    }
    *state = s;
    *value = v;
    walk_portable(state, value, out + i, n - i);
}
#endif

void strata_bench_walk(uint64_t *state, double *value, double *out, long n) {
#if defined(__x86_64__)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq")) {
        walk_avx512(state, value, out, n);
        return;
    }
#endif
    walk_portable(state, value, out, n);
}
