// Span-compositing kernels compiled for AVX2 and chosen at run time, while
// the rest of the package targets baseline x86-64 (SSE2): eight pixels a
// register instead of four, masked loads and stores for the ends of short
// spans, and whole rectangles and whole bands of the area rasterizer's cells
// in one call. The arithmetic is the Swift loops' (PixelMath): R·B and G·A
// channel pairs in 16-bit lanes, t·k + 128 divided by 255 as
// ((t·k + 128)·257) >> 16, exact for every byte pair; the coverage of cells is
// the Swift sweep's running sum in the same order. So the results are the same
// bytes as the portable path's, which the tests hold them to
// (SpanCompositingTests.swift). Written in C because Swift has no way to
// compile one function for AVX2 in a package that targets baseline x86-64.
#include "CPixels.h"
#include <math.h>


/// Swift's `max(x, y)`: y where y ≥ x, else x (NaN as Swift gives it).
static inline double swift_max(double x, double y) { return y >= x ? y : x; }

/// What `GradientShader.radialParameters` works out the same for every row
/// of a band (a start column and a span length): worked out once, and the
/// parameters that do not change written to `g` once.
typedef struct radial_band {
    double c, d, tx, ty, c0x, c0y, r0, cdx, cdy, qa, r0dr, r0r0, dqb, apx, bpx, lasta, lastb, n;
    int focal;
} radial_band;

/// The band's constants, the same operations as the Swift function's, and
/// g[2 ... 10], g[14] and g[17] (`k` as `strata_radial_parameters` takes it).
static radial_band radial_band_make(double *g, const double *k, long x, long count) {
#pragma clang fp contract(off)
    radial_band band;
    const double a = k[0], b = k[1];
    band.c = k[2]; band.d = k[3]; band.tx = k[4]; band.ty = k[5];
    band.c0x = k[6]; band.c0y = k[7]; band.r0 = k[8];
    const double r0 = k[8], dr = k[11] - r0;
    band.cdx = k[9] - k[6]; band.cdy = k[10] - k[7];
    const double qa = band.cdx * band.cdx + band.cdy * band.cdy - dr * dr;
    band.qa = qa;
    band.r0dr = r0 * dr; band.r0r0 = r0 * r0;
    const double px = (double)x + 0.5, last = (double)(count - 1 > 0 ? count - 1 : 0);
    band.apx = a * px; band.bpx = b * px;
    band.lasta = last * a; band.lastb = last * b;
    band.n = (double)count;
    band.dqb = a * band.cdx + b * band.cdy;
    g[2] = a; g[3] = b; g[4] = band.cdx; g[5] = band.cdy; g[6] = r0; g[7] = dr; g[8] = qa; g[9] = 1 / qa;
    g[10] = qa < 0 ? -1 : 1;
    g[14] = band.dqb;
    g[17] = band.dqb * band.dqb - qa * (a * a + b * b);
    band.focal = r0 == 0 && dr > 0 && qa < 0 && fabs(qa) < 0x1p100 && (double)count <= 1e4 * dr && isfinite(g[17]);
    return band;
}

/// How many rows ahead the rectangle kernel asks for.
#define PREFETCH_ROWS 4

/// Each channel of `p` times `k`/255, rounded (`scalePacked`).
static inline uint32_t scale_packed(uint32_t p, uint32_t k) {
    uint32_t rb = (p & 0x00FF00FFu) * k + 0x00800080u;
    rb = ((rb + ((rb >> 8) & 0x00FF00FFu)) >> 8) & 0x00FF00FFu;
    uint32_t ag = ((p >> 8) & 0x00FF00FFu) * k + 0x00800080u;
    ag = (ag + ((ag >> 8) & 0x00FF00FFu)) & 0xFF00FF00u;
    return rb | ag;
}

#if defined(__x86_64__)
#include <immintrin.h>

/// An edge's whole rows `row ..< end`, eight at a time (the last few in a
/// last step), with AVX2: each row's x at its bottom line and what
/// `strata_add_edge_area` adds for a row the edge descends entirely
/// (d = `dir`) worked out for eight rows in the lanes of a register, in the
/// same operations (so the same values); the cells then taken lane by lane.
/// A row whose edge spans more than two cells goes to `strata_add_edge_area`
/// itself. Returns `end`; `*line`, `*row_bits` and `*x_top` move on with it.
/// (The last few rows went one at a time before, through that function's
/// branch between one cell and two, which goes either way at random for a
/// steep edge: the polygons scene 2–6 % faster this way.) Rows and x are
/// converted in 32-bit lanes: bitmaps are at most 65,536 pixels a side
/// (`BitmapLimits`), so both stay far under 2³¹.
__attribute__((target("avx2")))
static long whole_rows_avx2(float **line, uint64_t **row_bits, long stride, long words, long row, long end, float x0,
                            float y0, float dxdy, float dir, float *x_top) {
    const __m256 zero = _mm256_setzero_ps(), half = _mm256_set1_ps(0.5f), d = _mm256_set1_ps(dir);
    const __m256i next = _mm256_setr_epi32(1, 2, 3, 4, 5, 6, 7, 8);
    const __m256i previous = _mm256_setr_epi32(0, 0, 1, 2, 3, 4, 5, 6);
    float *l = *line;
    uint64_t *b = *row_bits;
    float xt = *x_top;
    float xas[8], xbs[8], v0[8], v1[8], v2[8];
    int32_t at[8];
    while (row < end) {
        // Eight rows, or the last few (the lanes past them worked out and
        // left alone).
        const long n = end - row < 8 ? end - row : 8;
        const __m256 y_bot = _mm256_cvtepi32_ps(_mm256_add_epi32(_mm256_set1_epi32((int)row), next));
        const __m256 x_bot = _mm256_add_ps(_mm256_set1_ps(x0), _mm256_mul_ps(_mm256_sub_ps(y_bot, _mm256_set1_ps(y0)),
                                                                           _mm256_set1_ps(dxdy)));
        __m256 xa = _mm256_blend_ps(_mm256_permutevar8x32_ps(x_bot, previous), _mm256_set1_ps(xt), 0x01);
        __m256 xb = x_bot;
        xt = _mm256_cvtss_f32(_mm256_permutevar8x32_ps(x_bot, _mm256_set1_epi32((int)n - 1)));
        // Not at least 0 (NaN included): 0.
        xa = _mm256_and_ps(xa, _mm256_cmp_ps(xa, zero, _CMP_GE_OQ));
        xb = _mm256_and_ps(xb, _mm256_cmp_ps(xb, zero, _CMP_GE_OQ));
        const __m256 xl = _mm256_min_ps(xb, xa), xr = _mm256_max_ps(xb, xa);
        const __m256i il = _mm256_cvttps_epi32(xl), ir = _mm256_cvttps_epi32(xr);
        const __m256 width = _mm256_sub_ps(xr, xl);
        const __m256 one_cell = _mm256_or_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(il, ir)),
                                             _mm256_cmp_ps(width, _mm256_set1_ps(1.0f / 128), _CMP_LT_OQ));
        const __m256i il1 = _mm256_add_epi32(il, _mm256_set1_epi32(1));
        const __m256 two_cells = _mm256_andnot_ps(one_cell, _mm256_castsi256_ps(_mm256_cmpeq_epi32(ir, il1)));
        // One cell: by the mean x.
        const __m256 xm = _mm256_mul_ps(_mm256_add_ps(xa, xb), half);
        const __m256i i = _mm256_cvttps_epi32(xm);
        const __m256 f = _mm256_sub_ps(xm, _mm256_cvtepi32_ps(i));
        const __m256 a1 = _mm256_sub_ps(d, _mm256_mul_ps(d, f)), b1 = _mm256_mul_ps(d, f);
        // Two cells.
        const __m256 s = _mm256_div_ps(d, width);
        const __m256 fl = _mm256_sub_ps(_mm256_cvtepi32_ps(il1), xl);
        const __m256 c0 = _mm256_mul_ps(_mm256_mul_ps(_mm256_mul_ps(s, fl), fl), half);
        const __m256 fr = _mm256_sub_ps(_mm256_cvtepi32_ps(_mm256_add_epi32(ir, _mm256_set1_epi32(1))), xr);
        const __m256 c_last = _mm256_mul_ps(
            s, _mm256_sub_ps(_mm256_sub_ps(_mm256_add_ps(_mm256_cvtepi32_ps(ir), half), xl),
                             _mm256_mul_ps(_mm256_mul_ps(fr, fr), half)));
        _mm256_storeu_ps(v0, _mm256_blendv_ps(c0, a1, one_cell));
        _mm256_storeu_ps(v1, _mm256_blendv_ps(_mm256_sub_ps(c_last, c0), b1, one_cell));
        _mm256_storeu_ps(v2, _mm256_andnot_ps(one_cell, _mm256_sub_ps(d, c_last)));
        _mm256_storeu_si256((__m256i *)at, _mm256_blendv_epi8(il, i, _mm256_castps_si256(one_cell)));
        _mm256_storeu_ps(xas, xa);
        _mm256_storeu_ps(xbs, xb);
        const int ones = _mm256_movemask_ps(one_cell), twos = _mm256_movemask_ps(two_cells);
        for (int k = 0; k < n; k++, l += stride, b += words) {
            const long c = at[k];
            if ((ones | twos) >> k & 1) {
                // One cell or two without a branch between them (a slanted
                // edge's rows alternate between the two): a one-cell row adds
                // its third value, 0, to its first cell again.
                const long two = twos >> k & 1;
                l[c] += v0[k];
                l[c + 1] += v1[k];
                l[c + 2 * two] += v2[k];
                strata_mark_few(b, c, 2 + two);
            } else {
                strata_add_edge_area(l, b, xas[k], xbs[k], dir);
            }
        }
        row += n;
    }
    *line = l;
    *row_bits = b;
    *x_top = xt;
    return row;
}
#endif

void strata_accumulate_area(float *cells, uint64_t *bits, long stride, long words, long height, float x0, float y0,
                            float x1, float y1, float dir, int avx2) {
    strata_accumulate_area_rows(cells, bits, stride, words, height, 0, height, x0, y0, x1, y1, dir, avx2);
}

void strata_accumulate_area_rows(float *cells, uint64_t *bits, long stride, long words, long height, long lo, long hi,
                                 float x0, float y0, float x1, float y1, float dir, int avx2) {
    if (!(y0 < y1)) return;
    const long first = (long)y0;
    // The last row it reaches into: ⌈y1⌉ − 1, held to the band.
    const long whole = (long)y1;
    long last = (float)whole == y1 ? whole - 1 : whole;
    if (last > height - 1) last = height - 1;
    // No row of the window reached: nothing to add.
    if (last < lo || first >= hi) return;
    if (first >= last) {
        // Within one row (most edges of small shapes and shallow lines).
        strata_add_edge_area(cells + first * stride, bits + first * words, x0, x1, (y1 - y0) * dir);
        return;
    }
    const float dxdy = (x1 - x0) / (y1 - y0);
    // The first row, from y0.
    float x_top = (float)(first + 1);
    x_top = x0 + (x_top - y0) * dxdy;
    if (first >= lo) {
        strata_add_edge_area(cells + first * stride, bits + first * words, x0, x_top, ((float)(first + 1) - y0) * dir);
    }
    long row = first + 1;
    if (row < lo) {
        // The rows above the window passed over: x where the line enters the
        // window's first row, worked out as each row's is (from the start;
        // lo ≤ last, or the line would have returned above).
        row = lo;
        x_top = x0 + ((float)row - y0) * dxdy;
    }
    const long end = last < hi ? last : hi;
    float *line = cells + row * stride;
    uint64_t *row_bits = bits + row * words;
#if defined(__x86_64__)
    // Rows it crosses whole, eight at a time where the processor can, for an
    // edge of eight or more (a shorter one costs less a row at a time: a fill
    // of ten million short segments took a tenth longer the other way).
    if (avx2 && end - row >= 8) {
        row = whole_rows_avx2(&line, &row_bits, stride, words, row, end, x0, y0, dxdy, dir, &x_top);
    }
#else
    (void)avx2;
#endif
    for (; row < end; row++) {
        const float y_bot = (float)(row + 1);
        const float x_bot = x0 + (y_bot - y0) * dxdy;
        strata_add_edge_area(line, row_bits, x_top, x_bot, dir);
        x_top = x_bot;
        line += stride;
        row_bits += words;
    }
    if (last < hi) strata_add_edge_area(line, row_bits, x_top, x1, (y1 - (float)last) * dir);
}

void strata_prefetch_runs(const uint32_t *row, const long *runs, long count) {
    for (long k = 0; k < count; k++) {
        __builtin_prefetch(row + runs[2 * k], 1, 3);
        __builtin_prefetch(row + runs[2 * k + 1] - 1, 1, 3);
    }
}

void strata_prefetch_rows(const void *first, long bytes_per_row, long bytes, long rows) {
    const char *row = (const char *)first;
    for (long y = 0; y < rows; y++, row += bytes_per_row) {
        for (long b = 0; b < bytes; b += 64) __builtin_prefetch(row + b, 1, 3);
        __builtin_prefetch(row + bytes - 1, 1, 3);
    }
}

#if defined(__x86_64__)
#include <immintrin.h>

/// Stores the first `n` (0 ... 8) lanes of `v` at `d`, the rest of the
/// eight pixels left alone: as a masked store, but in pieces of four, two
/// and one. (AVX2's masked store, `vpmaskmovd`, took four to five times as
/// long on AMD's Zen 4, and a row of a small shape ends in one: its last
/// block, each row.)
__attribute__((target("avx2"), always_inline))
static inline void store_first8(void *to, __m256i v, long n) {
    uint32_t *d = (uint32_t *)to;
    if (n >= 8) {
        _mm256_storeu_si256((__m256i *)d, v);
        return;
    }
    __m128i part = _mm256_castsi256_si128(v);
    if (n & 4) {
        _mm_storeu_si128((__m128i *)d, part);
        part = _mm256_extracti128_si256(v, 1);
        d += 4;
    }
    if (n & 2) {
        _mm_storel_epi64((__m128i *)d, part);
        part = _mm_srli_si128(part, 8);
        d += 2;
    }
    if (n & 1) *d = (uint32_t)_mm_cvtsi128_si32(part);
}

/// Each channel of `v` times `k`/255, rounded.
__attribute__((target("avx2"), always_inline))
static inline __m256i scale8(__m256i v, __m256i k) {
    const __m256i low = _mm256_set1_epi32(0x00FF00FF);
    const __m256i bias = _mm256_set1_epi16(0x80);
    const __m256i m257 = _mm256_set1_epi16(257);
    __m256i rb = _mm256_and_si256(v, low);
    __m256i ag = _mm256_and_si256(_mm256_srli_epi32(v, 8), low);
    rb = _mm256_mulhi_epu16(_mm256_add_epi16(_mm256_mullo_epi16(rb, k), bias), m257);
    ag = _mm256_mulhi_epu16(_mm256_add_epi16(_mm256_mullo_epi16(ag, k), bias), m257);
    return _mm256_or_si256(rb, _mm256_slli_epi32(ag, 8));
}

/// `s` plus each channel of `v` times `k`/255, rounded: source over with a
/// constant keep.
__attribute__((target("avx2"), always_inline))
static inline __m256i blend8(__m256i v, __m256i s, __m256i k) {
    return _mm256_add_epi32(s, scale8(v, k));
}

/// Each channel of `v` times `k`/255, rounded: `scale8` sixteen pixels wide.
__attribute__((target("avx512f,avx512bw,avx512vl"), always_inline))
static inline __m512i scale16(__m512i v, __m512i k) {
    const __m512i low = _mm512_set1_epi32(0x00FF00FF);
    const __m512i bias = _mm512_set1_epi16(0x80), m257 = _mm512_set1_epi16(257);
    const __m512i rb = _mm512_mulhi_epu16(_mm512_add_epi16(_mm512_mullo_epi16(_mm512_and_si512(v, low), k), bias), m257);
    const __m512i ag = _mm512_mulhi_epu16(
        _mm512_add_epi16(_mm512_mullo_epi16(_mm512_and_si512(_mm512_srli_epi32(v, 8), low), k), bias), m257);
    return _mm512_or_si512(rb, _mm512_slli_epi32(ag, 8));
}

/// Row `y` of a rectangle's `height` rows (`width` pixels from `row`)
/// asks for the row PREFETCH_ROWS below it: each row of a rectangle is
/// another place in memory, a miss if it waits for its turn.
__attribute__((always_inline))
static inline void prefetch_ahead(const uint32_t *row, long row_stride, long width, long y, long height) {
    if (y + PREFETCH_ROWS >= height) return;
    const char *ahead = (const char *)(row + PREFETCH_ROWS * row_stride);
    for (long b = 0; b < width * 4; b += 64) __builtin_prefetch(ahead + b, 1, 3);
    __builtin_prefetch(ahead + width * 4 - 1, 1, 3);
}

/// The rows of a rectangle at least eight pixels wide, `d[i] = s[i] + d[i]·k[i]/255`
/// in blocks of eight lanes: the first block at 0 with `sf`/`kf`, the blocks
/// after it, while a pixel is left after them, with `sm`/`km`, and the last
/// block, at width − 8, with `sl`/`kl` (its lanes shared with the block before
/// are source 0, keep 255). The last blocks are done after all the others, so
/// that no load waits on the store just before it. A function of its own,
/// aligned to 64 bytes: inlined, where its loop fell depended on the code
/// around it, and a whole-frame blend took 0.23 ms in one build and 0.30 ms
/// in the next with nothing in it changed.
__attribute__((target("avx2"), noinline, aligned(64)))
static void rows_kernel(uint32_t *d, long row_stride, long width, long height, __m256i sf, __m256i kf,
                               __m256i sm, __m256i km, __m256i sl, __m256i kl) {
    const long full = (width - 1) >> 3;
    if (full > 0) {
        uint32_t *row = d;
        for (long y = 0; y < height; y++, row += row_stride) {
            prefetch_ahead(row, row_stride, width, y, height);
            __m256i *p = (__m256i *)row;
            _mm256_storeu_si256(p, blend8(_mm256_loadu_si256(p), sf, kf));
            for (long b = 1; b < full; b++) {
                __m256i *q = (__m256i *)(row + 8 * b);
                _mm256_storeu_si256(q, blend8(_mm256_loadu_si256(q), sm, km));
            }
        }
    }
    uint32_t *row = d + width - 8;
    for (long y = 0; y < height; y++, row += row_stride) {
        __m256i *p = (__m256i *)row;
        _mm256_storeu_si256(p, blend8(_mm256_loadu_si256(p), sl, kl));
    }
}

/// The source and keep factor (in both 16-bit halves) at coverage `c`, as
/// `SolidBlitter.sourceAndKeep`.
static inline void source_and_keep(uint32_t source, uint32_t c, int copy, uint32_t *s, uint32_t *k) {
    const uint32_t sc = c == 255 ? source : scale_packed(source, c);
    const uint32_t keep = 255 - (copy ? c : sc >> 24);
    *s = sc;
    *k = keep | keep << 16;
}

/// `rows_kernel` sixteen pixels a step (AVX-512): lane 0 of the first block
/// with `sl`/`kl`, the last pixel with `sr`/`kr`, the rest with `sm`/`km`,
/// the last block's lanes past the rectangle masked off; each lane's
/// operations `blend8`'s, so the same bytes in half the steps, and no
/// block done twice.
__attribute__((target("avx512f,avx512bw,avx512vl"), noinline, aligned(64)))
static void rows_kernel512(uint32_t *d, long row_stride, long width, long height, uint32_t sl, uint32_t kl,
                           uint32_t sm, uint32_t km, uint32_t sr, uint32_t kr) {
    const long last = (width - 1) >> 4, last_at = last << 4;
    const __mmask16 live = (__mmask16)(0xFFFFu >> (15 - ((width - 1) & 15)));
    const __mmask16 right_lane = (__mmask16)(1u << ((width - 1) & 15));
    const __m512i smv = _mm512_set1_epi32((int)sm), kmv = _mm512_set1_epi32((int)km);
    const __m512i sf = _mm512_mask_set1_epi32(smv, 1, (int)sl), kf = _mm512_mask_set1_epi32(kmv, 1, (int)kl);
    const __m512i sa = _mm512_mask_set1_epi32(last == 0 ? sf : smv, right_lane, (int)sr);
    const __m512i ka = _mm512_mask_set1_epi32(last == 0 ? kf : kmv, right_lane, (int)kr);
#define STRATA_ROW16(p, s, k) _mm512_add_epi32(s, scale16(p, k))
    for (long y = 0; y < height; y++, d += row_stride) {
        prefetch_ahead(d, row_stride, width, y, height);
        if (last > 0) {
            _mm512_storeu_si512((void *)d, STRATA_ROW16(_mm512_loadu_si512((const void *)d), sf, kf));
            for (long i = 16; i < last_at; i += 16) {
                _mm512_storeu_si512((void *)(d + i), STRATA_ROW16(_mm512_loadu_si512((const void *)(d + i)), smv, kmv));
            }
        }
        const __m512i v = _mm512_maskz_loadu_epi32(live, d + last_at);
        _mm512_mask_storeu_epi32(d + last_at, live, STRATA_ROW16(v, sa, ka));
    }
#undef STRATA_ROW16
}

__attribute__((target("avx2")))
void strata_blend_rect_avx2(uint32_t *d, long row_stride, long width, const long *rows, const uint8_t *coverage,
                            uint32_t source, int copy) {
    const int wide = strata_kernel_level() >= 2;
    const long full = (width - 1) >> 3, last_start = width - 8;
    const __m256i index = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    const __m256i first_lane = _mm256_cmpeq_epi32(index, _mm256_setzero_si256());
    const __m256i last_index = _mm256_add_epi32(index, _mm256_set1_epi32((int)last_start));
    const __m256i right_lane = _mm256_cmpeq_epi32(last_index, _mm256_set1_epi32((int)(width - 1)));
    const __m256i left_lane = _mm256_cmpeq_epi32(last_index, _mm256_setzero_si256());
    const __m256i done = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(full * 8)), last_index);
    uint32_t *d_group = d;
    for (int g = 0; g < 3; g++) {
        const long height = rows[g];
        if (height <= 0) continue;
        uint32_t sl, kl, sm, km, sr, kr;
        source_and_keep(source, coverage[3 * g], copy, &sl, &kl);
        source_and_keep(source, coverage[3 * g + 1], copy, &sm, &km);
        source_and_keep(source, coverage[3 * g + 2], copy, &sr, &kr);
        if (wide) {
            rows_kernel512(d_group, row_stride, width, height, sl, kl, sm, km, sr, kr);
            d_group += height * row_stride;
            continue;
        }
        const __m256i smv = _mm256_set1_epi32((int)sm), kmv = _mm256_set1_epi32((int)km);
        // First block: the left column in lane 0.
        const __m256i sf = _mm256_blendv_epi8(smv, _mm256_set1_epi32((int)sl), first_lane);
        const __m256i kf = _mm256_blendv_epi8(kmv, _mm256_set1_epi32((int)kl), first_lane);
        // Last block: the right column in its last lane, the left in lane 0 when
        // the rectangle is eight wide, and the lanes the block before did left as
        // they are (source 0, keep 255).
        __m256i sa = _mm256_blendv_epi8(smv, _mm256_set1_epi32((int)sr), right_lane);
        __m256i ka = _mm256_blendv_epi8(kmv, _mm256_set1_epi32((int)kr), right_lane);
        sa = _mm256_blendv_epi8(sa, _mm256_set1_epi32((int)sl), left_lane);
        ka = _mm256_blendv_epi8(ka, _mm256_set1_epi32((int)kl), left_lane);
        sa = _mm256_andnot_si256(done, sa);
        ka = _mm256_blendv_epi8(ka, _mm256_set1_epi32(255 | 255 << 16), done);
        rows_kernel(d_group, row_stride, width, height, sf, kf, smv, kmv, sa, ka);
        d_group += height * row_stride;
    }
}

/// `count` ≥ 8 pixels at `d`, each d = s + d·keep/255 (`blend8`, `sv` and
/// `kv` its vectors): sixteen a step, then eight, the last eight from
/// their values before any store (the lanes they share with the loop's
/// last block come out the same as there).
__attribute__((target("avx2"), always_inline))
static inline void blend_row8(uint32_t *d, long count, __m256i sv, __m256i kv) {
    __m256i *tail = (__m256i *)(d + count - 8);
    const __m256i last = blend8(_mm256_loadu_si256(tail), sv, kv);
    long i = 0;
    for (; i + 16 <= count; i += 16) {
        __m256i *p = (__m256i *)(d + i);
        const __m256i a = _mm256_loadu_si256(p), b = _mm256_loadu_si256(p + 1);
        _mm256_storeu_si256(p, blend8(a, sv, kv));
        _mm256_storeu_si256(p + 1, blend8(b, sv, kv));
    }
    if (i + 8 <= count) {
        __m256i *p = (__m256i *)(d + i);
        _mm256_storeu_si256(p, blend8(_mm256_loadu_si256(p), sv, kv));
    }
    _mm256_storeu_si256(tail, last);
}

static void blend_block512(uint32_t *d, long row_stride, long width, long height, uint32_t s, uint32_t keep);
static void blend_block8(uint32_t *d, long row_stride, long width, long height, uint32_t s, uint32_t keep);

// A rectangle of `height` rows of `width` >= 8 pixels, every pixel
// d = s + d·keep/255 (one coverage throughout: an aligned fill):
// eight-pixel rows in one block each, inline; wider ones with AVX-512 by
// `blend_block512`, else by `blend_block8`.
__attribute__((target("avx2")))
void strata_blend_block_avx2(uint32_t *d, long row_stride, long width, long height, uint32_t s, uint32_t keep) {
    const __m256i sv = _mm256_set1_epi32((int)s);
    const __m256i kv = _mm256_set1_epi32((int)(keep | keep << 16));
    if (width == 8) {
        for (long r = 0; r < height; r++, d += row_stride) {
            _mm256_storeu_si256((__m256i *)d, blend8(_mm256_loadu_si256((const __m256i *)d), sv, kv));
        }
        return;
    }
    if (strata_kernel_level() >= 2) {
        blend_block512(d, row_stride, width, height, s, keep);
        return;
    }
    blend_block8(d, row_stride, width, height, s, keep);
}

// (Not memset: for a frame's megabytes, libc's memset is `rep stosb`, which
// an AMD Zen 3 carries out past its caches, so the drawing that follows a
// clear read every line back from memory. A 1920 × 1080 clear followed by
// a pass over half of it took 0.43–0.57 ms so, 0.30 ms with stores.)
__attribute__((target("avx2")))
void strata_fill_avx2(uint32_t *d, long count, uint32_t value) {
    const __m256i v = _mm256_set1_epi32((int)value);
    if (count < 8) {
        for (long i = 0; i < count; i++) d[i] = value;
        return;
    }
    // The first block unaligned, then aligned blocks from the next 32-byte
    // boundary, the last block unaligned again (pixels are 4-byte aligned).
    _mm256_storeu_si256((__m256i *)d, v);
    long i = (long)((32 - ((uintptr_t)d & 31)) & 31) / 4;
    for (; i + 8 <= count; i += 8) _mm256_store_si256((__m256i *)(d + i), v);
    _mm256_storeu_si256((__m256i *)(d + count - 8), v);
}

/// `strata_blend_span_avx2`'s rows (the same operations, so the same
/// bytes) over `height` rows of `width` > 8 pixels, with AVX2 alone: the
/// vectors made once, not once a row by a call each (on a Zen 3 EPYC,
/// 32- and 64-pixel squares spent a third of their time on the calls and
/// their set-up), rows from 32 pixels wide asked for ahead
/// (`blend_block512`'s).
__attribute__((target("avx2"), noinline, aligned(64)))
static void blend_block8(uint32_t *d, long row_stride, long width, long height, uint32_t s, uint32_t keep) {
    const __m256i sv = _mm256_set1_epi32((int)s);
    const __m256i kv = _mm256_set1_epi32((int)(keep | keep << 16));
    for (long r = 0; r < height; r++, d += row_stride) {
        if (width >= 16) prefetch_ahead(d, row_stride, width, r, height);
        blend_row8(d, width, sv, kv);
    }
}

/// `strata_blend_span_avx2` sixteen pixels a step (AVX-512; the last few
/// under a mask): each lane's operations are `blend8`'s, so the same bytes.
/// A shape's row spans are a few dozen pixels: half the steps, and no tail
/// block worked out apart.
__attribute__((target("avx512f,avx512bw,avx512vl"), aligned(64)))
static void blend_span512(uint32_t *d, long count, uint32_t s, uint32_t keep) {
    const __m512i sv = _mm512_set1_epi32((int)s);
    const __m512i kv = _mm512_set1_epi32((int)(keep | keep << 16));
#define STRATA_BLEND16(v) _mm512_add_epi32(sv, scale16(v, kv))
    long i = 0;
    for (; i + 16 <= count; i += 16) {
        const __m512i v = _mm512_loadu_si512((const void *)(d + i));
        _mm512_storeu_si512((void *)(d + i), STRATA_BLEND16(v));
    }
    if (i < count) {
        const __mmask16 live = (__mmask16)((1u << (count - i)) - 1);
        const __m512i v = _mm512_maskz_loadu_epi32(live, d + i);
        _mm512_mask_storeu_epi32(d + i, live, STRATA_BLEND16(v));
    }
}

/// `blend_span512` over `height` rows of `width` > 8 pixels: the vectors
/// and the last block's mask worked out once, not once a row (a 16-pixel
/// row's own work is a dozen instructions; its set-up was three times that).
__attribute__((target("avx512f,avx512bw,avx512vl"), noinline, aligned(64)))
static void blend_block512(uint32_t *d, long row_stride, long width, long height, uint32_t s, uint32_t keep) {
    const __m512i sv = _mm512_set1_epi32((int)s);
    const __m512i kv = _mm512_set1_epi32((int)(keep | keep << 16));
    const long whole = width & ~15L;
    const __mmask16 live = (__mmask16)((1u << (width - whole)) - 1);
    for (long r = 0; r < height; r++, d += row_stride) {
        // (Rows asked for ahead from 32 pixels wide: on AMD's Zen 4 a
        // 64-pixel square's fill went 12-16 % faster, up to 256; narrower,
        // the requests cost what they saved.)
        if (width >= 32) prefetch_ahead(d, row_stride, width, r, height);
        for (long i = 0; i < whole; i += 16) {
            const __m512i v = _mm512_loadu_si512((const void *)(d + i));
            _mm512_storeu_si512((void *)(d + i), STRATA_BLEND16(v));
        }
        if (live) {
            const __m512i v = _mm512_maskz_loadu_epi32(live, d + whole);
            _mm512_mask_storeu_epi32(d + whole, live, STRATA_BLEND16(v));
        }
    }
#undef STRATA_BLEND16
}

__attribute__((target("avx2"), aligned(64)))
void strata_blend_narrow_rect_avx2(uint32_t *d, long row_stride, long width, long height, long room,
                                   const uint32_t pairs[6]) {
    // Lane i of a row: the left pair at 0, the right at width − 1 (width ≥ 2),
    // the middle's between, and past the rectangle source 0, keep 255, which
    // leaves a pixel as it is (x·255/255 rounds back to x).
    const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    const __m256i last = _mm256_set1_epi32((int)(width - 1));
    const __m256i is_left = _mm256_cmpeq_epi32(lane, _mm256_setzero_si256());
    const __m256i is_right = _mm256_andnot_si256(is_left, _mm256_cmpeq_epi32(lane, last));
    const __m256i inside = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)width), lane);
    __m256i sv = _mm256_and_si256(inside, _mm256_set1_epi32((int)pairs[2]));
    __m256i kv = _mm256_blendv_epi8(_mm256_set1_epi32(255), _mm256_set1_epi32((int)pairs[3]), inside);
    sv = _mm256_blendv_epi8(sv, _mm256_set1_epi32((int)pairs[0]), is_left);
    kv = _mm256_blendv_epi8(kv, _mm256_set1_epi32((int)pairs[1]), is_left);
    sv = _mm256_blendv_epi8(sv, _mm256_set1_epi32((int)pairs[4]), is_right);
    kv = _mm256_blendv_epi8(kv, _mm256_set1_epi32((int)pairs[5]), is_right);
    kv = _mm256_or_si256(kv, _mm256_slli_epi32(kv, 16));
    if (room >= 8) {
        // Eight pixels of the row are there to read and write back (those
        // past the rectangle unchanged): no masks.
        for (long r = 0; r < height; r++, d += row_stride)
            _mm256_storeu_si256((__m256i *)d, blend8(_mm256_loadu_si256((const __m256i *)d), sv, kv));
        return;
    }
    for (long r = 0; r < height; r++, d += row_stride)
        store_first8(d, blend8(_mm256_maskload_epi32((const int *)d, inside), sv, kv), width);
}

__attribute__((target("avx2"), aligned(64)))
void strata_blend_span_avx2(uint32_t *d, long count, uint32_t s, uint32_t keep) {
    if (count >= 16 && strata_kernel_level() >= 2) {
        blend_span512(d, count, s, keep);
        return;
    }
    blend_row8(d, count, _mm256_set1_epi32((int)s), _mm256_set1_epi32((int)(keep | keep << 16)));
}

/// Eight coverage bytes, each in both 16-bit halves of its lane.
__attribute__((target("avx2"), always_inline))
static inline __m256i spread8(uint64_t m) {
    const __m256i c = _mm256_cvtepu8_epi32(_mm_cvtsi64_si128((long long)m));
    return _mm256_or_si256(c, _mm256_slli_epi32(c, 16));
}


/// Eight pixels through eight coverages: `lerp` as `SolidBlitter.lerpMask`
/// (one rounding of s·c + d·(255 − c)), otherwise source over as `blitMask`
/// (the source scaled by c, then the destination by 255 − its alpha).
__attribute__((target("avx2"), always_inline))
static inline __m256i mask8(__m256i v, __m256i c, __m256i src, int lerp) {
    if (lerp) {
        const __m256i low = _mm256_set1_epi32(0x00FF00FF);
        const __m256i bias = _mm256_set1_epi16(0x80);
        const __m256i m257 = _mm256_set1_epi16(257);
        const __m256i k = _mm256_sub_epi16(_mm256_set1_epi16(255), c);
        const __m256i srb = _mm256_and_si256(src, low);
        const __m256i sag = _mm256_and_si256(_mm256_srli_epi32(src, 8), low);
        __m256i rb = _mm256_mullo_epi16(_mm256_and_si256(v, low), k);
        __m256i ag = _mm256_mullo_epi16(_mm256_and_si256(_mm256_srli_epi32(v, 8), low), k);
        rb = _mm256_add_epi16(_mm256_add_epi16(rb, _mm256_mullo_epi16(srb, c)), bias);
        ag = _mm256_add_epi16(_mm256_add_epi16(ag, _mm256_mullo_epi16(sag, c)), bias);
        rb = _mm256_mulhi_epu16(rb, m257);
        ag = _mm256_mulhi_epu16(ag, m257);
        return _mm256_or_si256(rb, _mm256_slli_epi32(ag, 8));
    }
    const __m256i s = scale8(src, c);
    __m256i keep = _mm256_sub_epi32(_mm256_set1_epi32(255), _mm256_srli_epi32(s, 24));
    keep = _mm256_or_si256(keep, _mm256_slli_epi32(keep, 16));
    return _mm256_add_epi32(s, scale8(v, keep));
}

/// `n` (1 ... 8) pixels through the coverage bytes in `m`, by masked loads and
/// stores when there are fewer than eight.
__attribute__((target("avx2"), always_inline))
static inline void few8(uint32_t *d, long n, uint64_t m, __m256i src, int lerp) {
    if (n == 8) {
        _mm256_storeu_si256((__m256i *)d, mask8(_mm256_loadu_si256((const __m256i *)d), spread8(m), src, lerp));
        return;
    }
    const __m256i lanes = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)n), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
    const __m256i v = _mm256_maskload_epi32((const int *)d, lanes);
    store_first8(d, mask8(v, spread8(m), src, lerp), n);
}

/// Eight premultiplied sources (already scaled by their coverage) over `d`:
/// d = s + d·(255 − αs)/255, as `scale_packed` (an opaque source's keep of 0
/// scales d to 0, a transparent one's 255 leaves it as it is). Always
/// blended: the opaque and transparent blocks had been stored or skipped,
/// but a pattern's checkerboard mixes them in every row, and on a Zen 3
/// EPYC the branches made its fills 1–6 % slower than the blends.
__attribute__((target("avx2"), always_inline))
static inline void over8(uint32_t *d, __m256i sv) {
    const __m256i full = _mm256_set1_epi32(255);
    const __m256i alpha = _mm256_srli_epi32(sv, 24);
    __m256i keep = _mm256_sub_epi32(full, alpha);
    keep = _mm256_or_si256(keep, _mm256_slli_epi32(keep, 16));
    _mm256_storeu_si256((__m256i *)d, _mm256_add_epi32(sv, scale8(_mm256_loadu_si256((const __m256i *)d), keep)));
}

__attribute__((target("avx2"), always_inline))
static inline void mask_span(uint32_t *d, long count, const uint8_t *mask, uint32_t source, int lerp) {
    const __m256i src = _mm256_set1_epi32((int)source);
    if (count < 8) {
        // Fewer than eight: the bytes gathered in a register (a copy through
        // memory would be read back before its stores could be forwarded),
        // then masked loads and stores of the pixels there are.
        uint64_t m = 0;
        for (long j = 0; j < count; j++) m |= (uint64_t)mask[j] << (8 * j);
        few8(d, count, m, src, lerp);
        return;
    }
    // The last eight from the pixels before any store, as in the span kernel:
    // their coverage is per pixel, so the shared lanes come out the same too.
    __m256i *tail = (__m256i *)(d + count - 8);
    uint64_t mt;
    __builtin_memcpy(&mt, mask + count - 8, 8);
    const __m256i last = mask8(_mm256_loadu_si256(tail), spread8(mt), src, lerp);
    for (long i = 0; i + 8 <= count; i += 8) {
        uint64_t m;
        __builtin_memcpy(&m, mask + i, 8);
        if (m == 0) continue;
        __m256i *p = (__m256i *)(d + i);
        _mm256_storeu_si256(p, mask8(_mm256_loadu_si256(p), spread8(m), src, lerp));
    }
    _mm256_storeu_si256(tail, last);
}

__attribute__((target("avx2")))
void strata_lerp_mask_avx2(uint32_t *d, long count, const uint8_t *mask, uint32_t source) {
    mask_span(d, count, mask, source, 1);
}

__attribute__((target("avx2")))
void strata_blend_mask_avx2(uint32_t *d, long count, const uint8_t *mask, uint32_t source) {
    mask_span(d, count, mask, source, 0);
}

/// `a` and `b` mixed as `a·(256 − w) + b·w` over 256, each channel rounded
/// (`ImageShader.lerp`); `iw` = 256 − w, both in every 16-bit lane.
__attribute__((target("avx2"), always_inline))
static inline __m256i lerp8(__m256i a, __m256i b, __m256i w, __m256i iw) {
    const __m256i low = _mm256_set1_epi32(0x00FF00FF), bias = _mm256_set1_epi16(0x80);
    const __m256i rb = _mm256_srli_epi16(
        _mm256_add_epi16(_mm256_add_epi16(_mm256_mullo_epi16(_mm256_and_si256(a, low), iw), _mm256_mullo_epi16(_mm256_and_si256(b, low), w)), bias), 8);
    const __m256i ag = _mm256_add_epi16(
        _mm256_add_epi16(_mm256_mullo_epi16(_mm256_and_si256(_mm256_srli_epi32(a, 8), low), iw),
                         _mm256_mullo_epi16(_mm256_and_si256(_mm256_srli_epi32(b, 8), low), w)), bias);
    return _mm256_or_si256(rb, _mm256_andnot_si256(low, ag));
}

static inline uint32_t lerp1(uint32_t a, uint32_t b, uint32_t w) {
    const uint32_t low = 0x00FF00FF, iw = 256 - w;
    const uint32_t rb = ((((a & low) * iw + (b & low) * w + 0x00800080u) >> 8) & low);
    const uint32_t ag = ((((a >> 8) & low) * iw + ((b >> 8) & low) * w + 0x00800080u) & ~low);
    return rb | ag;
}

__attribute__((target("avx2")))
void strata_lerp_rows_avx2(const uint32_t *a, const uint32_t *b, long count, uint32_t w, uint32_t *out) {
    const __m256i wv = _mm256_set1_epi16((short)w), iwv = _mm256_set1_epi16((short)(256 - w));
    long i = 0;
    for (; i + 8 <= count; i += 8) {
        const __m256i x = _mm256_loadu_si256((const __m256i *)(a + i)), y = _mm256_loadu_si256((const __m256i *)(b + i));
        _mm256_storeu_si256((__m256i *)(out + i), lerp8(x, y, wv, iwv));
    }
    for (; i < count; i++) out[i] = lerp1(a[i], b[i], w);
}

__attribute__((target("avx2")))
void strata_lerp_neighbours_avx2(uint32_t *v, long count, uint32_t last, uint32_t w) {
    const __m256i wv = _mm256_set1_epi16((short)w), iwv = _mm256_set1_epi16((short)(256 - w));
    long i = 0;
    // Ascending blocks: a block's right neighbours are read before the next
    // block overwrites them.
    for (; i + 9 <= count; i += 8) {
        const __m256i x = _mm256_loadu_si256((const __m256i *)(v + i)), y = _mm256_loadu_si256((const __m256i *)(v + i + 1));
        _mm256_storeu_si256((__m256i *)(v + i), lerp8(x, y, wv, iwv));
    }
    for (; i + 1 < count; i++) v[i] = lerp1(v[i], v[i + 1], w);
    if (count > 0) v[count - 1] = lerp1(v[count - 1], last, w);
}

static void source_over_run512(uint32_t *d, const uint32_t *s, long count, uint32_t coverage);
static void source_over_mask_run512(uint32_t *d, const uint32_t *s, long count, const uint8_t *mask);

__attribute__((target("avx2")))
void strata_source_over_mask_avx2(uint32_t *d, const uint32_t *s, long count, const uint8_t *mask) {
    if (count >= 16 && strata_kernel_level() >= 2) {
        source_over_mask_run512(d, s, count, mask);
        return;
    }
    long i = 0;
    for (; i + 8 <= count; i += 8) {
        uint64_t m;
        __builtin_memcpy(&m, mask + i, 8);
        if (m == 0) continue;
        __m256i *p = (__m256i *)(d + i);
        const __m256i sv = _mm256_loadu_si256((const __m256i *)(s + i));
        // Eight fully covered pixels (a shape's inside): the sources as they
        // are (scaling by 255 changes nothing), blended (`over8`).
        if (m == ~0ull) {
            over8(d + i, sv);
            continue;
        }
        _mm256_storeu_si256(p, mask8(_mm256_loadu_si256(p), spread8(m), sv, 0));
    }
    const long n = count - i;
    if (n <= 0) return;
    uint64_t m = 0;
    for (long j = 0; j < n; j++) m |= (uint64_t)mask[i + j] << (8 * j);
    if (m == 0) return;
    const __m256i lanes = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)n), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
    few8(d + i, n, m, _mm256_maskload_epi32((const int *)(s + i), lanes), 0);
}


__attribute__((target("avx2")))
void strata_source_over_columns_avx2(uint32_t *d, long d_stride, const uint32_t *s, long s_stride, long width,
                                     long height, const uint8_t coverage[4]) {
    // Lane c: column c's coverage (0 past the rectangle, and where a column
    // has none: a source scaled to 0 leaves the pixel as it is), and the
    // lanes past the rectangle neither read nor written.
    uint64_t m = 0;
    for (long c = 0; c < width; c++) m |= (uint64_t)coverage[c] << (8 * c);
    const __m256i cv = spread8(m);
    const __m256i lanes = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)width), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
    // (Lanes past the rectangle read column 0 again; never stored.)
    const uint32_t *s1 = width > 1 ? s + s_stride : s, *s2 = width > 2 ? s + 2 * s_stride : s;
    const uint32_t *s3 = width > 3 ? s + 3 * s_stride : s;
    for (long r = 0; r < height; r++, d += d_stride) {
        const __m256i src = _mm256_setr_epi32((int)s[r], (int)s1[r], (int)s2[r], (int)s3[r], 0, 0, 0, 0);
        const __m256i v = _mm256_maskload_epi32((const int *)d, lanes);
        store_first8(d, mask8(v, cv, src, 0), width);
    }
}

/// `d[i] = s + d[i]·keep/255` for `count` >= 1 pixels (a store of `s` where
/// nothing is kept).
__attribute__((target("avx2"), always_inline))
static inline void constant_span(uint32_t *d, long count, uint32_t s, uint32_t keep) {
    const __m256i sv = _mm256_set1_epi32((int)s);
    const __m256i kv = _mm256_set1_epi32((int)(keep | keep << 16));
    if (count < 8) {
        if (keep == 0) {
            store_first8(d, sv, count);
        } else {
            const __m256i lanes =
                _mm256_cmpgt_epi32(_mm256_set1_epi32((int)count), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
            const __m256i v = _mm256_maskload_epi32((const int *)d, lanes);
            store_first8(d, blend8(v, sv, kv), count);
        }
        return;
    }
    if (keep == 0) {
        long i = 0;
        for (; i + 8 <= count; i += 8) _mm256_storeu_si256((__m256i *)(d + i), sv);
        _mm256_storeu_si256((__m256i *)(d + count - 8), sv);
        return;
    }
    strata_blend_span_avx2(d, count, s, keep);
}

#pragma STDC FP_CONTRACT OFF
/// `coverageByte` of AreaRasterizer.swift, the same operations in the same order.
static inline uint8_t coverage_byte(float acc, int even_odd) {
    float a = __builtin_fabsf(acc);
    if (even_odd) {
        a -= 2.0f * __builtin_floorf(a * 0.5f);
        if (a > 1.0f) a = 2.0f - a;
    } else if (a > 1.0f) {
        a = 1.0f;
    }
    const float t = a * 255.0f + 8388608.0f;
    uint32_t b;
    __builtin_memcpy(&b, &t, 4);
    return (uint8_t)b;
}

/// Inclusive running sums of eight cells, added in a fixed order that
/// `prefixSums8` (AreaRasterizer.swift) repeats: each cell onto its
/// neighbour's, then pairs two apart, then the fourth sum onto the last four
/// (within each half of four, then across).
__attribute__((target("avx2"), always_inline))
static inline __m256 prefix8(__m256 v) {
    v = _mm256_add_ps(v, _mm256_castsi256_ps(_mm256_slli_si256(_mm256_castps_si256(v), 4)));
    v = _mm256_add_ps(v, _mm256_castsi256_ps(_mm256_slli_si256(_mm256_castps_si256(v), 8)));
    const __m256 fourth = _mm256_permutevar8x32_ps(v, _mm256_set1_epi32(3));
    return _mm256_add_ps(v, _mm256_blend_ps(_mm256_setzero_ps(), fourth, 0xF0));
}

/// `coverage_byte` of eight running sums, one in the low byte of each lane.
__attribute__((target("avx2"), always_inline))
static inline __m256i coverage8(__m256 acc, int even_odd) {
    const __m256 one = _mm256_set1_ps(1.0f);
    __m256 a = _mm256_and_ps(acc, _mm256_castsi256_ps(_mm256_set1_epi32(0x7FFFFFFF)));
    if (even_odd) {
        a = _mm256_sub_ps(a, _mm256_mul_ps(_mm256_set1_ps(2.0f), _mm256_floor_ps(_mm256_mul_ps(a, _mm256_set1_ps(0.5f)))));
        a = _mm256_blendv_ps(a, _mm256_sub_ps(_mm256_set1_ps(2.0f), a), _mm256_cmp_ps(a, one, _CMP_GT_OQ));
    } else {
        a = _mm256_blendv_ps(a, one, _mm256_cmp_ps(a, one, _CMP_GT_OQ));
    }
    const __m256 t = _mm256_add_ps(_mm256_mul_ps(a, _mm256_set1_ps(255.0f)), _mm256_set1_ps(8388608.0f));
    return _mm256_and_si256(_mm256_castps_si256(t), _mm256_set1_epi32(0xFF));
}

/// Marks an array of indices just stored from a register as changed in
/// memory, so that the loads after it read them there. Left alone, clang
/// takes each index out of the register instead (`vpextrd`: two
/// micro-ops through the one port between vector and integer registers
/// on Zen 4, against one of three load ports); read back as pairs of
/// 32-bit indices in 64-bit words, 256 lookups measured a fifth to a
/// quarter faster in a C harness, and radial and conic fills 2–10 %
/// (Benchmarks/RESULTS.md). (Where the entries are wanted in a register,
/// `lookup8`, the same measured slower: kept as it was.)
#define STRATA_SPILLED(k) __asm__("" : "+m"(k))

/// Eight pixels of `pixels` at the indices in `at`: gathered with `gather`
/// (`strata_gathers`, where that is fast), else one load each (a gather
/// costs several times more under the Gather Data Sampling guard).
__attribute__((target("avx2"), always_inline))
static inline __m256i lookup8(const uint32_t *pixels, __m256i at, int gather) {
    if (gather) return _mm256_i32gather_epi32((const int *)pixels, at, 4);
    int32_t k[8];
    _mm256_storeu_si256((__m256i *)k, at);
    return _mm256_setr_epi32((int)pixels[k[0]], (int)pixels[k[1]], (int)pixels[k[2]], (int)pixels[k[3]],
                             (int)pixels[k[4]], (int)pixels[k[5]], (int)pixels[k[6]], (int)pixels[k[7]]);
}

/// `lookup8` as `strata_gathers` says, for callers without a row's paint.
__attribute__((target("avx2"), always_inline))
static inline __m256i load8(const uint32_t *pixels, __m256i at) { return lookup8(pixels, at, strata_gathers()); }

/// A padded linear gradient's eight entries at u (16.16, the entry plus ½),
/// gathered or loaded as `gather` says (`lookup8`).
__attribute__((target("avx2"), always_inline))
static inline __m256i linear_entries8(const uint32_t *table, __m256i u, int gather) {
    const __m256i top = _mm256_set1_epi32(255 << 16);
    const __m256i k = _mm256_srli_epi32(_mm256_min_epi32(_mm256_max_epi32(u, _mm256_setzero_si256()), top), 16);
    return lookup8(table, k, gather);
}

/// The single-precision focal polynomials' constants (g[19 ... 23], g[18]
/// = 1) in every lane: made once for a row or a span.
typedef struct {
    __m256 b, bd, iv, ddd, dmin;
} radial8v;

__attribute__((target("avx2"), always_inline))
static inline radial8v radial8v_make(const double *g) {
    return (radial8v){_mm256_set1_ps((float)g[19]), _mm256_set1_ps((float)g[20]), _mm256_set1_ps((float)g[21]),
                      _mm256_set1_ps((float)g[22]), _mm256_set1_ps((float)g[23])};
}

/// The table places of pixels `fi` (their indices in the span, eight in
/// single precision) by the single-precision focal polynomials `r`:
/// `GradientShader.radialSingleEntry`'s operations in its order, so the
/// same entries.
__attribute__((target("avx2"), always_inline))
static inline __m256i radial_single8v(const radial8v *r, __m256 fi) {
    const __m256 zero = _mm256_setzero_ps();
    const __m256 u = _mm256_sub_ps(fi, r->iv);
    const __m256 disc = _mm256_add_ps(_mm256_mul_ps(_mm256_mul_ps(u, r->ddd), u), r->dmin);
    const __m256 root = _mm256_sqrt_ps(_mm256_max_ps(disc, zero));
    const __m256 place = _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(r->bd, fi), r->b), root);
    return _mm256_cvttps_epi32(_mm256_min_ps(_mm256_max_ps(place, zero), _mm256_set1_ps(255)));
}

/// `radial_single8v` with the constants read from `g` (g[18] = 1).
__attribute__((target("avx2"), always_inline))
static inline __m256i radial_single8(const double *g, __m256 fi) {
    const radial8v r = radial8v_make(g);
    return radial_single8v(&r, fi);
}

// Four pixels' table entries from their t, padded: below 0 the first
// entry, above 1 the last, NaN the transparent 257th (256). The radial
// kernels' last steps.
__attribute__((target("avx2"), always_inline))
static inline __m128i radial_entries4(__m256d t) {
    const __m256d zero = _mm256_setzero_pd(), one = _mm256_set1_pd(1);
    const __m256d u = _mm256_min_pd(_mm256_max_pd(t, zero), one);
    const __m256d e = _mm256_blendv_pd(_mm256_set1_pd(256), _mm256_add_pd(_mm256_mul_pd(u, _mm256_set1_pd(255)), _mm256_set1_pd(0.5)),
                                       _mm256_cmp_pd(t, t, _CMP_ORD_Q));
    return _mm256_cvttpd_epi32(e);
}

/// A row's sources, worked out eight pixels at a time from the pixel's
/// place x in the row (`strata_row_paint`, with its vectors set up once).
typedef struct {
    int kind;
    const uint32_t *table;
    int32_t u0, du;
    __m256i ramp;  // linear: lane·du
    const double *g;
    const float *c;
    /// Whether its lookups are gathered (`strata_gathers`).
    int gather;
    /// `ROW_BILINEAR`: the lower of the two image rows (`table` the upper),
    /// and the weights between the rows and between the columns (1/256,
    /// in every 16-bit lane) with 256 minus each.
    const uint32_t *table1;
    __m256i wy, iwy, wx, iwx;
    /// `ROW_AFFINE`: the image and the row's first place in it.
    const struct affine_row *affine;
    /// `STRATA_ROW_RADIAL_FOCAL` in single precision (g[18] = 1): the
    /// polynomials' constants made once a row (`radial_single8` converted
    /// and broadcast them once a block).
    int single;
    radial8v radial;
} row_paint;

/// A row kind of this file's own (not `strata_row_paint`'s): a repeated
/// pattern sampled bilinearly and moved along x only
/// (`strata_sweep_bilinear_rows_avx2`).
#define ROW_BILINEAR 5
/// A repeated pattern at any angle (`strata_sweep_affine_rows_avx2`): the
/// affine kernel's pixels from the row's first place.
#define ROW_AFFINE 6

/// An image sampled through an affine map along a row (the affine
/// kernel's vectors): pixel i of the row at u0 + i·du, v0 + i·dv.
typedef struct affine_row {
    const uint32_t *pixels;
    __m256d w, h, a, b, us, vs;
    __m256i wn, hn, sn;
    int bilinear, pad;
} affine_row;

/// The affine kernel's eight pixels at places i0 ... i0 + 7 of its row
/// (`strata_affine_span_avx2`).
__attribute__((target("avx2"), always_inline))
static inline __m256i affine8(const affine_row *r, __m256d i0);

__attribute__((target("avx2"), always_inline))
static inline row_paint row_paint_make(const strata_row_paint *p) {
    const __m256i zero = _mm256_setzero_si256();
    const __m256 none = _mm256_setzero_ps();
    row_paint r = {p->kind, p->table, p->u0, p->du, zero, p->g, p->c, strata_gathers(), NULL, zero, zero, zero, zero, NULL,
                   0, {none, none, none, none, none}};
    r.ramp = _mm256_mullo_epi32(_mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7), _mm256_set1_epi32(p->du));
    return r;
}

/// A radial row's single-precision vectors (`row_paint.single`), for rows
/// whose blocks are many (a shape's edges); a rectangle's rows, shaded in
/// long spans, go on without them.
__attribute__((target("avx2"), always_inline))
static inline void row_paint_radial_vectors(row_paint *r) {
    const double *g = r->g;
    if (r->kind != STRATA_ROW_RADIAL_FOCAL || g[18] == 0) return;
    r->single = 1;
    r->radial = radial8v_make(g);
}

__attribute__((target("avx2"), always_inline))
static inline __m256i radial_focal8(const uint32_t *table, const double *g, __m256d i0, __m256d i1);

/// A radial row's eight entries at places `fi` (single precision) and
/// `i0` (the first four, double): `radial_single8v` with the row's
/// constants where the row takes single precision, else `radial_focal8`.
/// The places are whole numbers under 2^24, so `fi` holds the same values
/// as `i0` and the four after it.
__attribute__((target("avx2"), always_inline))
static inline __m256i radial_row8(const row_paint *p, __m256 fi, __m256d i0) {
    if (p->single) return lookup8(p->table, radial_single8v(&p->radial, fi), p->gather);
    return radial_focal8(p->table, p->g, i0, _mm256_add_pd(i0, _mm256_set1_pd(4)));
}

/// A conic gradient's eight table indices (`GradientShader.conicTurn`'s
/// operations in their order, in single precision, contraction off), the
/// pixels' places in `index`; g: dx0, dy0, sx, sy, offset. NaN (a NaN
/// coordinate, or both infinite) takes the transparent 257th entry.
__attribute__((target("avx2"), always_inline))
static inline __m256i conic_indices8(const float *g, __m256 index) {
    const __m256 sign = _mm256_set1_ps(-0.0f), zero = _mm256_setzero_ps();
    const __m256 quarter = _mm256_set1_ps(0.25f), half = _mm256_set1_ps(0.5f), one = _mm256_set1_ps(1.0f);
    const __m256 dx = _mm256_add_ps(_mm256_set1_ps(g[0]), _mm256_mul_ps(index, _mm256_set1_ps(g[2])));
    const __m256 dy = _mm256_add_ps(_mm256_set1_ps(g[1]), _mm256_mul_ps(index, _mm256_set1_ps(g[3])));
    const __m256 ax = _mm256_andnot_ps(sign, dx), ay = _mm256_andnot_ps(sign, dy);
    const __m256 mx = _mm256_max_ps(ax, ay), mn = _mm256_min_ps(ax, ay);
    const __m256 r = _mm256_and_ps(_mm256_div_ps(mn, mx), _mm256_cmp_ps(mx, zero, _CMP_GT_OQ));
    const __m256 s = _mm256_mul_ps(r, r);
    __m256 p = _mm256_add_ps(_mm256_mul_ps(_mm256_set1_ps(STRATA_CONIC_K5), s), _mm256_set1_ps(STRATA_CONIC_K4));
    p = _mm256_add_ps(_mm256_mul_ps(p, s), _mm256_set1_ps(STRATA_CONIC_K3));
    p = _mm256_add_ps(_mm256_mul_ps(p, s), _mm256_set1_ps(STRATA_CONIC_K2));
    p = _mm256_add_ps(_mm256_mul_ps(p, s), _mm256_set1_ps(STRATA_CONIC_K1));
    p = _mm256_add_ps(_mm256_mul_ps(p, s), _mm256_set1_ps(STRATA_CONIC_K0));
    p = _mm256_mul_ps(p, r);
    p = _mm256_blendv_ps(p, _mm256_sub_ps(quarter, p), _mm256_cmp_ps(ay, ax, _CMP_GT_OQ));
    p = _mm256_blendv_ps(p, _mm256_sub_ps(half, p), _mm256_cmp_ps(dx, zero, _CMP_LT_OQ));
    p = _mm256_blendv_ps(p, _mm256_sub_ps(one, p), _mm256_cmp_ps(dy, zero, _CMP_LT_OQ));
    __m256 t = _mm256_sub_ps(p, _mm256_set1_ps(g[4]));
    t = _mm256_sub_ps(t, _mm256_floor_ps(t));
    const __m256 valid = _mm256_and_ps(_mm256_cmp_ps(t, t, _CMP_ORD_Q), _mm256_cmp_ps(dx, dy, _CMP_ORD_Q));
    const __m256 e = _mm256_blendv_ps(_mm256_set1_ps(256.0f), _mm256_add_ps(_mm256_mul_ps(t, _mm256_set1_ps(255.0f)), half), valid);
    return _mm256_cvttps_epi32(e);
}

/// A radial gradient's eight entries whose focal point is inside its end
/// circle, the pixels' places in `i0` (four) and `i1` (the next four):
/// `strata_radial_pad_span_avx2`'s operations on g, so the same entries as
/// its pixels there.
__attribute__((target("avx2"), always_inline))
static inline __m256i radial_focal_indices8(const double *g, __m256d i0, __m256d i1);

__attribute__((target("avx2"), always_inline))
static inline __m256i radial_focal8(const uint32_t *table, const double *g, __m256d i0, __m256d i1) {
    return load8(table, radial_focal_indices8(g, i0, i1));
}

/// `radial_focal8`'s table indices, before the lookup.
__attribute__((target("avx2"), always_inline))
static inline __m256i radial_focal_indices8(const double *g, __m256d i0, __m256d i1) {
    if (g[18] != 0) return radial_single8(g, _mm256_set_m128(_mm256_cvtpd_ps(i1), _mm256_cvtpd_ps(i0)));
    const __m256d zero = _mm256_setzero_pd(), inv = _mm256_set1_pd(g[9]);
    const __m256d qb0 = _mm256_set1_pd(g[13]), dqb = _mm256_set1_pd(g[14]);
    const __m256d d0 = _mm256_set1_pd(g[15]), d1 = _mm256_set1_pd(g[16]), d2 = _mm256_set1_pd(g[17]);
    const __m256d qa = _mm256_add_pd(qb0, _mm256_mul_pd(i0, dqb)), qb = _mm256_add_pd(qb0, _mm256_mul_pd(i1, dqb));
    const __m256d da = _mm256_add_pd(d0, _mm256_mul_pd(i0, _mm256_add_pd(d1, _mm256_mul_pd(i0, d2))));
    const __m256d db = _mm256_add_pd(d0, _mm256_mul_pd(i1, _mm256_add_pd(d1, _mm256_mul_pd(i1, d2))));
    const __m256d ta = _mm256_mul_pd(_mm256_sub_pd(qa, _mm256_sqrt_pd(_mm256_max_pd(da, zero))), inv);
    const __m256d tb = _mm256_mul_pd(_mm256_sub_pd(qb, _mm256_sqrt_pd(_mm256_max_pd(db, zero))), inv);
    return _mm256_set_m128i(radial_entries4(tb), radial_entries4(ta));
}

/// Places x ... x + 3 of a row as doubles (the first four of eight).
__attribute__((target("avx2"), always_inline))
static inline __m256d places4(long x) { return _mm256_add_pd(_mm256_set1_pd((double)x), _mm256_setr_pd(0, 1, 2, 3)); }

/// c mod `period` for c ≥ 0: a subtraction where c is within two periods
/// (a pattern's row across a shape about the pattern's size), a division
/// only past that (a 64-bit one cost a ring's side a quarter of its blocks).
static inline long wrap_place(long c, long period) {
    if (c < period) return c;
    c -= period;
    return c < period ? c : c % period;
}

/// Pixels x ... x + 7's sources from a repeated image row (`STRATA_ROW_IMAGE`):
/// pixel i takes `table[(u0 + i) mod du]`, u0 in 0 ..< du. Eight in a row of
/// the image are loaded at once; where they wrap, one at a time. Nothing
/// outside the image's row is read.
__attribute__((target("avx2"), always_inline))
static inline __m256i image8(const row_paint *p, long x) {
    const long period = p->du;
    long c = (long)p->u0 + x;
    if (c + 8 <= period) return _mm256_loadu_si256((const __m256i *)(p->table + c));
    c = wrap_place(c, period);
    if (c + 8 <= period) return _mm256_loadu_si256((const __m256i *)(p->table + c));
    uint32_t v[8];
    for (int k = 0; k < 8; k++) {
        v[k] = p->table[c];
        c = c + 1 == period ? 0 : c + 1;
    }
    return _mm256_loadu_si256((const __m256i *)v);
}

/// Pixels x ... x + 7's sources from a repeated pattern sampled
/// bilinearly and moved along x only (`ROW_BILINEAR`): pixel i mixes image
/// columns k and k + 1 (k = (u0 + i) mod du, and k + 1 wrapped) between
/// rows `table` and `table1`, then the two columns:
/// `ImageShader.shadeTranslated`'s mixes in its order, so its pixels.
/// Nothing outside the two rows is read.
__attribute__((target("avx2"), always_inline))
static inline __m256i bilinear8(const row_paint *p, long x) {
    const long period = p->du;
    long c = (long)p->u0 + x;
    if (c + 9 > period) c = wrap_place(c, period);
    __m256i a0, a1, b0, b1;
    if (c + 9 <= period) {
        a0 = _mm256_loadu_si256((const __m256i *)(p->table + c));
        a1 = _mm256_loadu_si256((const __m256i *)(p->table + c + 1));
        b0 = _mm256_loadu_si256((const __m256i *)(p->table1 + c));
        b1 = _mm256_loadu_si256((const __m256i *)(p->table1 + c + 1));
    } else {
        // (Wrapping within the block: the nine columns one at a time.)
        uint32_t u[9], v[9];
        for (int k = 0; k < 9; k++) {
            u[k] = p->table[c];
            v[k] = p->table1[c];
            c = c + 1 == period ? 0 : c + 1;
        }
        a0 = _mm256_loadu_si256((const __m256i *)u);
        a1 = _mm256_loadu_si256((const __m256i *)(u + 1));
        b0 = _mm256_loadu_si256((const __m256i *)v);
        b1 = _mm256_loadu_si256((const __m256i *)(v + 1));
    }
    return lerp8(lerp8(a0, b0, p->wy, p->iwy), lerp8(a1, b1, p->wy, p->iwy), p->wx, p->iwx);
}

/// Pixels x ... x + 7's sources: a padded linear gradient's entries at
/// u0 + i·du (`strata_linear_pad_over_avx2`'s), a radial gradient's
/// (`radial_focal8`), a conic gradient's, or a repeated image row's (`image8`).
__attribute__((target("avx2"), always_inline))
static inline __m256i paint8(const row_paint *p, int kind, long x) {
    if (kind == STRATA_ROW_IMAGE) return image8(p, x);
    if (kind == ROW_BILINEAR) return bilinear8(p, x);
    if (kind == ROW_AFFINE) return affine8(p->affine, places4(x));
    if (kind == STRATA_ROW_LINEAR) {
        const __m256i u = _mm256_add_epi32(_mm256_set1_epi32((int32_t)((uint32_t)p->u0 + (uint32_t)x * (uint32_t)p->du)), p->ramp);
        return linear_entries8(p->table, u, p->gather);
    }
    if (kind == STRATA_ROW_CONIC) {
        return lookup8(p->table, conic_indices8(p->c, _mm256_add_ps(_mm256_set1_ps((float)x), _mm256_setr_ps(0, 1, 2, 3, 4, 5, 6, 7))),
                       p->gather);
    }
    return radial_row8(p, _mm256_add_ps(_mm256_set1_ps((float)x), _mm256_setr_ps(0, 1, 2, 3, 4, 5, 6, 7)), places4(x));
}

static void radial_focal_span512(const uint32_t *table, const double *g, long x, long count, uint32_t *out);
static void conic_span512(const uint32_t *table, const float *g, long x, long count, uint32_t *out);
static void radial_focal_span8(const uint32_t *table, const double *g, long x, long count, uint32_t *out);
static void conic_span8(const uint32_t *table, const float *g, long x, long count, uint32_t *out);

/// Sixteen premultiplied sources `s` (the lanes in `live`) blended source
/// over onto `d`: each destination channel scaled by what the source's
/// alpha leaves, the source added.
__attribute__((target("avx512f,avx512bw,avx512vl"), always_inline))
static inline void blend16(uint32_t *d, __m512i s, __mmask16 live) {
    __m512i keep = _mm512_sub_epi32(_mm512_set1_epi32(255), _mm512_srli_epi32(s, 24));
    keep = _mm512_or_si512(keep, _mm512_slli_epi32(keep, 16));
    const __m512i dv = _mm512_maskz_loadu_epi32(live, d);
    _mm512_mask_storeu_epi32(d, live, _mm512_add_epi32(s, scale16(dv, keep)));
}

/// Sixteen sources `sv` (the lanes in `live`) scaled by `c16` where
/// `scaled`, blended source over onto `d`: `paint_run`'s operations in
/// each lane (opaque blocks stored, transparent ones left), so its bytes.
__attribute__((target("avx512f,avx512bw,avx512vl"), always_inline))
static inline void over16(uint32_t *d, __m512i sv, __mmask16 live, int scaled, __m512i c16) {
    if (scaled) sv = scale16(sv, c16);
    if ((_mm512_cmpeq_epi32_mask(_mm512_srli_epi32(sv, 24), _mm512_set1_epi32(255)) & live) == live) {
        _mm512_mask_storeu_epi32(d, live, sv);
        return;
    }
    if (_mm512_test_epi32_mask(sv, sv) == 0) return;
    blend16(d, sv, live);
}

/// `source_over_row` sixteen pixels a step (AVX-512): each source scaled by
/// `coverage` and blended as `over16` does (opaque blocks stored,
/// transparent ones left), which gives `over8`'s bytes in each lane.
__attribute__((target("avx512f,avx512bw,avx512vl"), noinline))
static void source_over_run512(uint32_t *d, const uint32_t *s, long count, uint32_t coverage) {
    const __m512i c16 = _mm512_set1_epi16((short)coverage);
    const int scaled = coverage < 255;
    for (long i = 0; i < count; i += 16) {
        const __mmask16 live = count - i >= 16 ? (__mmask16)0xFFFF : (__mmask16)((1u << (count - i)) - 1);
        over16(d + i, _mm512_maskz_loadu_epi32(live, s + i), live, scaled, c16);
    }
}

/// `strata_source_over_mask_avx2` sixteen pixels a step: runs of sixteen
/// zero bytes skipped, fully covered runs as `over16`, the rest each
/// source scaled by its byte and blended (`mask8`'s operations), so the
/// same bytes.
__attribute__((target("avx512f,avx512bw,avx512vl"), noinline))
static void source_over_mask_run512(uint32_t *d, const uint32_t *s, long count, const uint8_t *mask) {
    const __m128i full = _mm_set1_epi8((char)0xFF);
    for (long i = 0; i < count; i += 16) {
        const __mmask16 live = count - i >= 16 ? (__mmask16)0xFFFF : (__mmask16)((1u << (count - i)) - 1);
        const __m128i bytes = _mm_maskz_loadu_epi8(live, mask + i);
        if (_mm_testz_si128(bytes, bytes)) continue;
        const __m512i sv = _mm512_maskz_loadu_epi32(live, s + i);
        if ((_mm_cmpeq_epi8_mask(bytes, full) & live) == live) {
            over16(d + i, sv, live, 0, _mm512_setzero_si512());
            continue;
        }
        __m512i c = _mm512_cvtepu8_epi32(bytes);
        c = _mm512_or_si512(c, _mm512_slli_epi32(c, 16));
        blend16(d + i, scale16(sv, c), live);
    }
}

static void radial_run512(uint32_t *d, const uint32_t *table, const double *g, long x, long count, uint32_t coverage);

/// A narrow repeated image's places for sixteen lanes (`narrow`): lane
/// l's (column + l) mod width (`first`), and how far a step of sixteen
/// pixels moves them, brought within the period (`step`); the lanes its
/// row fills in a register (`held`). Otherwise `first` is column + l and
/// `step` 16. (Brought within the period by subtracting it, at most
/// 16 / width times, in the register, where the lanes were written one by
/// one and loaded back whole, a load that waits for the stores, and
/// 16 % width was a division.)
typedef struct {
    __m512i first, step, w;
    __mmask16 held;
} narrow16;

__attribute__((target("avx512f,avx512bw,avx512vl"), always_inline))
static inline narrow16 narrow16_make(long image_width, long column, int narrow) {
    const __m512i lanes = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    const __m512i w = _mm512_set1_epi32((int32_t)image_width);
    __m512i first = _mm512_add_epi32(_mm512_set1_epi32((int32_t)column), lanes);
    long step16 = 16;
    if (narrow) {
        for (__mmask16 past = _mm512_cmpge_epi32_mask(first, w); past; past = _mm512_cmpge_epi32_mask(first, w))
            first = _mm512_mask_sub_epi32(first, past, first, w);
        while (step16 >= image_width) step16 -= image_width;
    }
    return (narrow16){first, _mm512_set1_epi32((int32_t)step16), w,
                      (__mmask16)(image_width >= 16 ? 0xFFFF : (1u << image_width) - 1)};
}

/// `strata_source_over_image_row_avx512`'s blend (AVX-512).
__attribute__((target("avx512f,avx512bw,avx512vl"), noinline))
static void source_over_image_row512(uint32_t *d, const uint32_t *row, long width, long column, long count,
                                     uint32_t coverage, const uint8_t *mask, int repeat) {
    const __mmask16 low = width >= 16 ? (__mmask16)0xFFFF : (__mmask16)((1u << width) - 1);
    const __mmask16 high = width <= 16 ? 0 : (__mmask16)((1u << (width - 16)) - 1);
    const __m512i lo = _mm512_maskz_loadu_epi32(low, row);
    const __m512i hi = _mm512_maskz_loadu_epi32(high, row + 16);
    // Repeated: lane l's column (column + l) mod width, then sixteen more
    // each step. Padded: column + l itself, held within 0 ... width − 1.
    const narrow16 n = narrow16_make(width, column, repeat);
    const __m512i w = n.w, last = _mm512_set1_epi32((int32_t)width - 1), step = n.step;
    __m512i at = n.first;
    const __m512i c16 = _mm512_set1_epi16((short)coverage);
    const int scaled = coverage < 255;
    for (long i = 0; i < count; i += 16) {
        const __mmask16 live = count - i >= 16 ? (__mmask16)0xFFFF : (__mmask16)((1u << (count - i)) - 1);
        const __m512i k = repeat ? at : _mm512_min_epi32(_mm512_max_epi32(at, _mm512_setzero_si512()), last);
        const __m512i sv = _mm512_permutex2var_epi32(lo, k, hi);
        at = _mm512_add_epi32(at, step);
        if (repeat) at = _mm512_mask_sub_epi32(at, _mm512_cmpge_epi32_mask(at, w), at, w);
        if (!mask) {
            over16(d + i, sv, live, scaled, c16);
            continue;
        }
        // `source_over_mask_run512`'s operations.
        const __m128i bytes = _mm_maskz_loadu_epi8(live, mask + i);
        if (_mm_testz_si128(bytes, bytes)) continue;
        if ((_mm_cmpeq_epi8_mask(bytes, _mm_set1_epi8((char)0xFF)) & live) == live) {
            over16(d + i, sv, live, 0, c16);
            continue;
        }
        __m512i c = _mm512_cvtepu8_epi32(bytes);
        c = _mm512_or_si512(c, _mm512_slli_epi32(c, 16));
        blend16(d + i, scale16(sv, c), live);
    }
}

int strata_source_over_image_row_avx512(uint32_t *d, const uint32_t *row, long width, long column, long count,
                                        uint32_t coverage, const uint8_t *mask, int repeat) {
    if (strata_kernel_level() < 2 || width < 1 || width > 32 || count < 0 || count > (1L << 24)) return 0;
    if (repeat ? (column < 0 || column >= width) : (column < -(1L << 24) || column > (1L << 24))) return 0;
    if (count > 0) source_over_image_row512(d, row, width, column, count, coverage, mask, repeat != 0);
    return 1;
}


static void radial_mask_run512(uint32_t *d, const uint32_t *table, const double *g, long x, long count,
                               const uint8_t *mask);

/// How many neighbouring pixels of a padded linear gradient stepping `du`
/// (16.16 table places a pixel) fall within 32 entries of the table: 16
/// or 8, or 0 where eight already spread wider.
static inline int linear_window_lanes(int32_t du) {
    const int64_t step = du < 0 ? -(int64_t)du : (int64_t)du;
    if (15 * step <= 30 * 65536) return 16;
    if (7 * step <= 30 * 65536) return 8;
    return 0;
}

/// The padded table place (0 ... 255) at 16.16 place `u` (`linear_entries8`'s).
static inline int32_t linear_place(int32_t u) {
    return (u < 0 ? 0 : (u > (255 << 16) ? (255 << 16) : u)) >> 16;
}

/// Where a window of 32 entries starts for the places from 16.16 place
/// `first` to `first + reach` (a linear gradient's, running one way): at
/// the lesser, no further than 225, so it lies within the 257 entries.
static inline int32_t linear_window_start(uint32_t first, uint32_t reach) {
    const int32_t a = linear_place((int32_t)first), b = linear_place((int32_t)(first + reach));
    const int32_t start = a < b ? a : b;
    return start > 225 ? 225 : start;
}

/// The entries of the table's 32 from `start` at places `at` (0 ... 31
/// from it): two vectors loaded, one permutation.
__attribute__((target("avx512f"), always_inline))
static inline __m512i pick32(const uint32_t *table, int32_t start, __m512i at) {
    return _mm512_permutex2var_epi32(_mm512_loadu_si512(table + start), at, _mm512_loadu_si512(table + start + 16));
}

/// Sixteen entries of a 257-entry table at `idx` (each 0 ... 256) without
/// reading memory at them: eight two-vector permutations, each taking the
/// entries of its 32 by the index's low five bits, narrowed by bits 5, 6
/// and 7 in a tree of seven blends; bit 8 takes the 257th. Lanes whose
/// index lies outside 0 ... 256 get some entry of the table, never a read
/// outside it (lanes past a span's end, masked off when stored). The
/// table's 256 entries are `t` (`table16_load`), the 257th in every lane
/// `last`. In a C harness on Zen 4, sixteen lookups this way took 0.18 ns
/// a pixel, against 0.45 one by one and 0.36–0.49 gathered: with
/// AVX-512, entries that neither fall within a window of the table
/// (`window16`, `linear_window16`) nor are gathered fast are picked so.
__attribute__((target("avx512f,avx512vl,avx512bw"), always_inline))
static inline __m512i table16_from(const __m512i t[16], __m512i last, __m512i idx) {
    __m512i r[8];
    for (int j = 0; j < 8; j++) r[j] = _mm512_permutex2var_epi32(t[2 * j], idx, t[2 * j + 1]);
    const __mmask16 b5 = _mm512_test_epi32_mask(idx, _mm512_set1_epi32(32));
    const __mmask16 b6 = _mm512_test_epi32_mask(idx, _mm512_set1_epi32(64));
    const __mmask16 b7 = _mm512_test_epi32_mask(idx, _mm512_set1_epi32(128));
    const __mmask16 b8 = _mm512_test_epi32_mask(idx, _mm512_set1_epi32(256));
    for (int j = 0; j < 4; j++) r[j] = _mm512_mask_blend_epi32(b5, r[2 * j], r[2 * j + 1]);
    for (int j = 0; j < 2; j++) r[j] = _mm512_mask_blend_epi32(b6, r[2 * j], r[2 * j + 1]);
    return _mm512_mask_blend_epi32(b8, _mm512_mask_blend_epi32(b7, r[0], r[1]), last);
}

/// The table's 256 entries as the sixteen vectors `table16_from` picks
/// from (the 257th apart: `table16_last`).
__attribute__((target("avx512f,avx512vl,avx512bw"), always_inline))
static inline void table16_load(const uint32_t *table, __m512i t[16]) {
    for (int j = 0; j < 16; j++) t[j] = _mm512_loadu_si512(table + 16 * j);
}

__attribute__((target("avx512f,avx512vl,avx512bw"), always_inline))
static inline __m512i table16_last(const uint32_t *table) { return _mm512_set1_epi32((int)table[256]); }

/// `table16_from` with the table's vectors loaded for this lookup alone.
__attribute__((target("avx512f,avx512vl,avx512bw"), always_inline))
static inline __m512i table16(const uint32_t *table, __m512i idx) {
    __m512i t[16];
    table16_load(table, t);
    return table16_from(t, table16_last(table), idx);
}

/// Sixteen pixels' entries of a padded linear gradient, their places `k`
/// (`linear_entries8`'s), the first pixel's 16.16 place `first`, stepping
/// `du`: taken from the 32 entries of the table the places fall within,
/// loaded as two vectors and picked by a permutation (`halves`: each eight
/// pixels from their own 32, where sixteen spread wider). The places run
/// one way, a step apart, so sixteen (eight) never spread beyond
/// (15·|du|) >> 16 + 1 entries ((7·|du|) >> 16 + 1), within 32 where
/// `linear_window_lanes` allows; a window starts at its lesser end, no
/// further than 225, so it lies within the table's 257 entries.
__attribute__((target("avx512f,avx512bw,avx512vl"), always_inline))
static inline __m512i linear_window16(const uint32_t *table, __m512i k, uint32_t first, int32_t du, int halves) {
    if (!halves) {
        const int32_t start = linear_window_start(first, 15 * (uint32_t)du);
        return pick32(table, start, _mm512_sub_epi32(k, _mm512_set1_epi32(start)));
    }
    const int32_t start0 = linear_window_start(first, 7 * (uint32_t)du);
    const int32_t start1 = linear_window_start(first + 8 * (uint32_t)du, 7 * (uint32_t)du);
    const __m512i at = _mm512_sub_epi32(k, _mm512_mask_blend_epi32((__mmask16)0xFF00, _mm512_set1_epi32(start0),
                                                                   _mm512_set1_epi32(start1)));
    return _mm512_mask_blend_epi32((__mmask16)0xFF00, pick32(table, start0, at), pick32(table, start1, at));
}

/// Sixteen pixels' entries at places `k` (the lanes in `live`): from their
/// window (`linear_window16`) where `window` is set, else gathered.
__attribute__((target("avx512f,avx512bw,avx512vl"), always_inline))
static inline __m512i linear_entries16(const uint32_t *table, __m512i k, __mmask16 live, uint32_t first, int32_t du,
                                       int window, int halves) {
    if (window) return linear_window16(table, k, first, du, halves);
    if (!strata_gathers()) return table16(table, k);
    return _mm512_mask_i32gather_epi32(_mm512_setzero_si512(), live, k, table, 4);
}

/// `paint_run` of a padded linear gradient, sixteen pixels a step: the
/// entries at u0 + i·du from their window of the table (`window`, where
/// `linear_window_lanes(du)` is not 0) or gathered (`strata_gathers`),
/// scaled by `coverage` and blended source over in registers, each lane's
/// operations `paint_run`'s, so the same bytes. (Sixteen entries loaded one
/// by one and blended in the same pass measured 2.3 times slower than the
/// gathers: the loads' chain held the blend up. From a window, rows of 128
/// and 256 pixels went 1.35–1.5 times as fast as with the loads.)
__attribute__((target("avx512f,avx512bw,avx512vl"), noinline))
static void linear_run512(uint32_t *d, const uint32_t *table, int32_t u0, int32_t du, long count, uint32_t coverage,
                          int window) {
    const __m512i lanes = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    __m512i u = _mm512_add_epi32(_mm512_set1_epi32(u0), _mm512_mullo_epi32(lanes, _mm512_set1_epi32(du)));
    const __m512i step = _mm512_set1_epi32((int32_t)((uint32_t)du * 16));
    const __m512i top = _mm512_set1_epi32(255 << 16);
    const __m512i c16 = _mm512_set1_epi16((short)coverage);
    const int scaled = coverage < 255, halves = linear_window_lanes(du) == 8;
    uint32_t first = (uint32_t)u0;
    for (long i = 0; i < count; i += 16, u = _mm512_add_epi32(u, step), first += 16 * (uint32_t)du) {
        const __mmask16 live = count - i >= 16 ? (__mmask16)0xFFFF : (__mmask16)((1u << (count - i)) - 1);
        const __m512i k = _mm512_srli_epi32(_mm512_min_epi32(_mm512_max_epi32(u, _mm512_setzero_si512()), top), 16);
        over16(d + i, linear_entries16(table, k, live, first, du, window, halves), live, scaled, c16);
    }
}

/// `linear_run512` through `mask`'s coverage bytes (each entry scaled by
/// its byte, then the destination by what it leaves: `mask8`'s operations,
/// so its bytes), sixteen pixels a step, runs of sixteen zero bytes
/// skipped.
__attribute__((target("avx512f,avx512bw,avx512vl"), noinline))
static void linear_mask_run512(uint32_t *d, const uint32_t *table, int32_t u0, int32_t du, long count,
                               const uint8_t *mask, int window) {
    const __m512i lanes = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    __m512i u = _mm512_add_epi32(_mm512_set1_epi32(u0), _mm512_mullo_epi32(lanes, _mm512_set1_epi32(du)));
    const __m512i step = _mm512_set1_epi32((int32_t)((uint32_t)du * 16));
    const __m512i top = _mm512_set1_epi32(255 << 16);
    const int halves = linear_window_lanes(du) == 8;
    uint32_t first = (uint32_t)u0;
    for (long i = 0; i < count; i += 16, u = _mm512_add_epi32(u, step), first += 16 * (uint32_t)du) {
        const __mmask16 live = count - i >= 16 ? (__mmask16)0xFFFF : (__mmask16)((1u << (count - i)) - 1);
        const __m128i bytes = _mm_maskz_loadu_epi8(live, mask + i);
        if (_mm_testz_si128(bytes, bytes)) continue;
        __m512i c = _mm512_cvtepu8_epi32(bytes);
        c = _mm512_or_si512(c, _mm512_slli_epi32(c, 16));
        const __m512i k = _mm512_srli_epi32(_mm512_min_epi32(_mm512_max_epi32(u, _mm512_setzero_si512()), top), 16);
        blend16(d + i, scale16(linear_entries16(table, k, live, first, du, window, halves), c), live);
    }
}

/// `count` pixels from place x of a row's sources blended source over onto
/// `d` at constant `coverage` (0 ... 255): eight a step (`over8`), the last
/// few by masks.
/// The places move on by eight a step (the same values as `paint8`'s).
__attribute__((target("avx2"), always_inline))
static inline void source_over_row(uint32_t *d, const uint32_t *s, long count, uint32_t coverage);

__attribute__((target("avx2"), always_inline))
static inline void paint_run(uint32_t *d, const row_paint *p, int kind, long x, long count, uint32_t coverage) {
    if (kind == STRATA_ROW_IMAGE) {
        // The image row's pixels as they are, a period at a time
        // (`strata_source_over_avx2`'s operations).
        long c = wrap_place((long)p->u0 + x, p->du);
        while (count > 0) {
            const long n = count < p->du - c ? count : p->du - c;
            source_over_row(d, p->table + c, n, coverage);
            d += n;
            count -= n;
            c = 0;
        }
        return;
    }
    if (kind == STRATA_ROW_LINEAR && count >= 16) {
        // (From a window where the step allows one, else gathered where
        // that is fast, else picked from the whole table, `table16`, where
        // the run is two blocks or more.)
        const int window = linear_window_lanes(p->du) != 0;
        if (strata_kernel_level() >= 2 && (window || p->gather || count >= 32)) {
            linear_run512(d, p->table, (int32_t)((uint32_t)p->u0 + (uint32_t)x * (uint32_t)p->du), p->du, count, coverage,
                          window);
            return;
        }
    }
    if (kind == STRATA_ROW_RADIAL_FOCAL && count >= 16 && p->gather) {
        radial_run512(d, p->table, p->g, x, count, coverage);
        return;
    }
    if (kind == ROW_AFFINE && count >= 16) {
        // A pattern's wide inside through a buffer, its blends sixteen at a
        // time where the processor has AVX-512 (`source_over_row`): blended
        // eight at a time as they were made, a large rotated pattern's fill
        // went slower than through its coverage bytes. (The kernel's
        // vectors copied here, so that they stay in registers.)
        const affine_row a = *p->affine;
        uint32_t buffer[256 + 8];
        __m256d at = places4(x);
        for (long done = 0; done < count; done += 256) {
            const long n = count - done < 256 ? count - done : 256;
            for (long i = 0; i < n; i += 8, at = _mm256_add_pd(at, _mm256_set1_pd(8)))
                _mm256_storeu_si256((__m256i *)(buffer + i), affine8(&a, at));
            source_over_row(d + done, buffer, n, coverage);
        }
        return;
    }
    if (kind != STRATA_ROW_LINEAR && kind != ROW_BILINEAR && kind != ROW_AFFINE && count >= 16) {
        // Through a buffer, shaded in one loop and blended in another
        // (the same operations, so the same entries): the wide inside of a
        // shape's row went faster this way, eight pixels a step in AVX-512
        // than in AVX2 pairs of four, and with AVX2 alone (16 registers)
        // than shaded and blended in one loop, whose vectors spilled.
        uint32_t buffer[256];
        const int wide = strata_kernel_level() >= 2;
        for (long done = 0; done < count; done += 256) {
            const long n = count - done < 256 ? count - done : 256;
            if (kind == STRATA_ROW_CONIC) {
                (wide ? conic_span512 : conic_span8)(p->table, p->c, x + done, n, buffer);
            } else {
                (wide ? radial_focal_span512 : radial_focal_span8)(p->table, p->g, x + done, n, buffer);
            }
            strata_source_over_avx2(d + done, buffer, n, coverage);
        }
        return;
    }
    const __m256i lanes = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    const __m256i full = _mm256_set1_epi32(255);
    const __m256i c16 = _mm256_set1_epi16((short)coverage);
    const int scaled = coverage < 255;
    __m256i u = _mm256_add_epi32(_mm256_set1_epi32((int32_t)((uint32_t)p->u0 + (uint32_t)x * (uint32_t)p->du)), p->ramp);
    const __m256i step = _mm256_slli_epi32(_mm256_set1_epi32(p->du), 3);
    __m256d i0 = places4(x);
    const __m256d eight = _mm256_set1_pd(8);
    __m256 fi = _mm256_add_ps(_mm256_set1_ps((float)x), _mm256_setr_ps(0, 1, 2, 3, 4, 5, 6, 7));
#define STRATA_PAINT8()                                                                                      \
    (kind == ROW_BILINEAR       ? bilinear8(p, x + i)                                                         \
     : kind == ROW_AFFINE       ? affine8(p->affine, i0)                                                      \
     : kind == STRATA_ROW_LINEAR ? linear_entries8(p->table, u, p->gather)                                    \
     : kind == STRATA_ROW_CONIC ? lookup8(p->table, conic_indices8(p->c, fi), p->gather)                      \
                                : radial_row8(p, fi, i0))
    long i = 0;
    for (; i + 8 <= count; i += 8) {
        __m256i sv = STRATA_PAINT8();
        u = _mm256_add_epi32(u, step);
        i0 = _mm256_add_pd(i0, eight);
        fi = _mm256_add_ps(fi, _mm256_set1_ps(8.0f));
        if (scaled) sv = scale8(sv, c16);
        over8(d + i, sv);
    }
    if (i < count) {
        const __m256i live = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(count - i)), lanes);
        __m256i sv = STRATA_PAINT8();
        if (scaled) sv = scale8(sv, c16);
        __m256i keep = _mm256_sub_epi32(full, _mm256_srli_epi32(sv, 24));
        keep = _mm256_or_si256(keep, _mm256_slli_epi32(keep, 16));
        const __m256i dv = _mm256_maskload_epi32((const int *)(d + i), live);
        store_first8(d + i, _mm256_add_epi32(sv, scale8(dv, keep)), count - i);
    }
#undef STRATA_PAINT8
}

/// The constant stretch `row[x ..< end]` at running sum `acc` (`blitSpan`).
__attribute__((target("avx2"), always_inline))
static inline void gap_span(uint32_t *row, long x, long end, float acc, int even_odd, uint32_t source, int copy) {
    const uint8_t c = coverage_byte(acc, even_odd);
    if (c != 0) {
        const uint32_t s = c == 255 ? source : scale_packed(source, c);
        constant_span(row + x, end - x, s, 255 - (copy ? c : s >> 24));
    }
}

/// The first `n` (1 ... 8) bytes of `b`'s low halves (lanes 0–3 of each 128-bit
/// half hold the bytes picked from a block's coverage lanes) at `out`.
__attribute__((target("avx2"), always_inline))
static inline void store_bytes(uint8_t *out, __m256i b, long n) {
    const uint64_t packed =
        (uint64_t)(uint32_t)_mm256_extract_epi32(b, 0) | (uint64_t)(uint32_t)_mm256_extract_epi32(b, 4) << 32;
    __builtin_memcpy(out, &packed, (size_t)n);
}

/// One row, as `sweepCoverageSpans` (AreaRasterizer.swift): from each touched
/// cell not yet swept, a block of eight cells (fewer at the row's end), their
/// running sums in a register (`prefix8`), each pixel blended with its own
/// coverage straight from it; between blocks, constant spans. A block starts
/// at a touched cell and takes the seven after it whatever they are (the
/// untouched ones hold 0), so a short run of cells costs whole-register loads
/// and stores, no masks, and the next span starts past what the block stored.
///
/// With `out`, the coverage bytes are written to `out` instead of blended
/// (`strata_sweep_coverage_avx2`; `row` is not touched): the same blocks,
/// sums and bytes, but only within the row's runs, which go to `runs`.
__attribute__((target("avx2"), always_inline))
static inline void sweep_row(float *line, uint64_t *bits, long words, long width, uint32_t *row,
                             int even_odd, uint32_t source, int copy, int lerp, __m256i src, uint8_t *out,
                             long *runs, long capacity, long *run_count, const row_paint *paint, int kind) {
    // With `paint` (of `kind`, a constant where this is inlined), each
    // pixel's source is the row's paint at its place instead of `src`.
    const __m256i pick = _mm256_setr_epi8(0, 4, 8, 12, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 0, 4, 8, 12, -1, -1,
                                          -1, -1, -1, -1, -1, -1, -1, -1, -1, -1);
    float acc = 0;
    long x = 0;      // the first cell (and pixel) not yet swept
    long first = -1; // the open run's first cell (bytes: nothing before a run is written)
    long count = 0;  // the runs closed
    for (long w = 0; w < words; w++) {
        uint64_t word = bits[w];
        if (word == 0) continue;
        bits[w] = 0;
        const long base = w << 6;
        // A block from the word before may have swept this one's first cells.
        if (x > base) word = x - base >= 64 ? 0 : word & (~0ull << (x - base));
        while (word != 0) {
            const long start = base + __builtin_ctzll(word);
            if (start >= width) {
                // Past the last pixel (an edge on the right side): cleared only.
                line[start] = 0;
                word &= word - 1;
                continue;
            }
            if (start > x) {
                // (Before the first block the sum is 0: no bytes to write.)
                if (out) {
                    const uint8_t c = coverage_byte(acc, even_odd);
                    if (first >= 0 && c == 0 && start - x >= 16 && count + 1 < capacity) {
                        // Sixteen or more uncovered pixels (a ring's inside,
                        // the gap between two shapes) end a run: the next
                        // starts at this block.
                        runs[2 * count] = first;
                        runs[2 * count + 1] = x;
                        count++;
                        first = start;
                    } else if (first >= 0) {
                        __builtin_memset(out + x, c, (size_t)(start - x));
                    }
                } else if (paint) {
                    const uint8_t c = coverage_byte(acc, even_odd);
                    if (c != 0) paint_run(row + x, paint, kind, x, start - x, c);
                } else {
                    gap_span(row, x, start, acc, even_odd, source, copy);
                }
            }
            if (first < 0) first = start;
            uint32_t *d = out ? NULL : row + start;  // (no pixels when only the bytes are asked for)
            if (start + 8 <= width) {
                const __m256 cells8 = _mm256_loadu_ps(line + start);
                _mm256_storeu_ps(line + start, _mm256_setzero_ps());
                const __m256 sums = _mm256_add_ps(_mm256_set1_ps(acc), prefix8(cells8));
                acc = _mm256_cvtss_f32(_mm256_permutevar8x32_ps(sums, _mm256_set1_epi32(7)));
                const __m256i cov = coverage8(sums, even_odd);
                if (out) {
                    store_bytes(out + start, _mm256_shuffle_epi8(cov, pick), 8);
                } else if (!_mm256_testz_si256(cov, cov)) {
                    const __m256i c = _mm256_or_si256(cov, _mm256_slli_epi32(cov, 16));
                    const __m256i s8 = paint ? paint8(paint, kind, start) : src;
                    _mm256_storeu_si256((__m256i *)d, mask8(_mm256_loadu_si256((const __m256i *)d), c, s8, lerp));
                }
                x = start + 8;
            } else {
                // The row's last pixels: masked loads, stores of the first n lanes.
                const long n = width - start;
                const __m256i lanes =
                    _mm256_cmpgt_epi32(_mm256_set1_epi32((int)n), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
                const __m256 cells8 = _mm256_maskload_ps(line + start, lanes);
                store_first8(line + start, _mm256_setzero_si256(), n);
                const __m256 sums = _mm256_add_ps(_mm256_set1_ps(acc), prefix8(cells8));
                const __m256i cov = coverage8(sums, even_odd);
                if (out) {
                    store_bytes(out + start, _mm256_shuffle_epi8(cov, pick), n);
                } else if (!_mm256_testz_si256(cov, cov)) {
                    const __m256i c = _mm256_or_si256(cov, _mm256_slli_epi32(cov, 16));
                    const __m256i v = _mm256_maskload_epi32((const int *)d, lanes);
                    const __m256i s8 = paint ? paint8(paint, kind, start) : src;
                    store_first8(d, mask8(v, c, s8, lerp), n);
                }
                x = width;
            }
            word = x - base >= 64 ? 0 : word & (~0ull << (x - base));
        }
    }
    if (out) {
        // The bytes written: from the first block to the last, or to the
        // row's end where the sum is still covering there.
        long end = x;
        if (x < width) {
            const uint8_t c = coverage_byte(acc, even_odd);
            if (c != 0) {
                __builtin_memset(out + x, c, (size_t)(width - x));
                end = width;
            }
        }
        if (first >= 0) {
            runs[2 * count] = first;
            runs[2 * count + 1] = end;
            count++;
        }
        *run_count = count;
    } else if (x < width && paint) {
        const uint8_t c = coverage_byte(acc, even_odd);
        if (c != 0) paint_run(row + x, paint, kind, x, width - x, c);
    } else if (x < width) {
        gap_span(row, x, width, acc, even_odd, source, copy);
    }
}

__attribute__((target("avx2")))
long strata_sweep_coverage_avx2(float *line, uint64_t *bits, long words, long width, int even_odd, uint8_t *out,
                                long *runs, long capacity) {
    // The runs come from the sweep (a run from a block to the last block
    // before a wide uncovered gap, or to the row's end): scanning the row's
    // bytes for them cost a large shaded shape's row more than sweeping it,
    // and a ring's row was shaded across its inside.
    long count = 0;
    sweep_row(line, bits, words, width, NULL, even_odd, 0, 0, 0, _mm256_setzero_si256(), out, runs,
              capacity < 1 ? 1 : capacity, &count, NULL, 0);
    return count;
}

__attribute__((target("avx2"), always_inline))
static inline void sweep_rows_body(float *cells, long cell_stride, uint64_t *bits, long words, long width, long rows,
                                   uint32_t *pixels, long row_stride, int even_odd, uint32_t source, int copy) {
    const int lerp = copy || (source >> 24) == 255;
    const __m256i src = _mm256_set1_epi32((int)source);
    // Each blend a loop of its own, so that neither row carries the other's branches.
    // Rows asked for ahead (`prefetch_ahead`), the band's width of them,
    // where it is 16 pixels or more and the rows lie a page (4 KiB) or more
    // apart: the processor's own prefetchers follow a stream within a page,
    // not from one row to the next across pages. On a Zen 3 EPYC, the raster
    // scene of 1,000 polygons on a 1920-pixel frame went 2.2 times as fast
    // (its shapes' first blocks in each row waited on memory); on the grid's
    // 512-pixel canvas (two rows a page) asking measured 2-5 % slower.
    const int ahead = width >= 16 && row_stride >= 1024;
    if (lerp) {
        for (long y = 0; y < rows; y++) {
            if (ahead) prefetch_ahead(pixels + y * row_stride, row_stride, width, y, rows);
            sweep_row(cells + y * cell_stride, bits + y * words, words, width, pixels + y * row_stride, even_odd,
                      source, copy, 1, src, NULL, NULL, 0, NULL, NULL, 0);
        }
    } else {
        for (long y = 0; y < rows; y++) {
            if (ahead) prefetch_ahead(pixels + y * row_stride, row_stride, width, y, rows);
            sweep_row(cells + y * cell_stride, bits + y * words, words, width, pixels + y * row_stride, even_odd,
                      source, copy, 0, src, NULL, NULL, 0, NULL, NULL, 0);
        }
    }
}

/// `sweep_rows_body` with AVX-512's 32 registers (the same 8-lane
/// operations): its constants stay in registers across a row's blocks.
__attribute__((target("avx2,avx512f,avx512vl,avx512bw,avx512dq"), noinline))
static void sweep_rows512(float *cells, long cell_stride, uint64_t *bits, long words, long width, long rows,
                          uint32_t *pixels, long row_stride, int even_odd, uint32_t source, int copy) {
    sweep_rows_body(cells, cell_stride, bits, words, width, rows, pixels, row_stride, even_odd, source, copy);
}

__attribute__((target("avx2"), aligned(64)))
void strata_sweep_rows_avx2(float *cells, long cell_stride, uint64_t *bits, long words, long width, long rows,
                            uint32_t *pixels, long row_stride, int even_odd, uint32_t source, int copy) {
    if (strata_kernel_level() >= 2) {
        sweep_rows512(cells, cell_stride, bits, words, width, rows, pixels, row_stride, even_odd, source, copy);
        return;
    }
    sweep_rows_body(cells, cell_stride, bits, words, width, rows, pixels, row_stride, even_odd, source, copy);
}

__attribute__((target("avx2"), aligned(64)))
void strata_sweep_shaded_row_avx2(float *line, uint64_t *bits, long words, long width, uint32_t *row, int even_odd,
                                  const strata_row_paint *paint) {
    row_paint p = row_paint_make(paint);
    row_paint_radial_vectors(&p);
    // One sweep for each kind, so that neither carries the other's branches.
    if (paint->kind == STRATA_ROW_LINEAR) {
        sweep_row(line, bits, words, width, row, even_odd, 0, 0, 0, _mm256_setzero_si256(), NULL, NULL, 0, NULL, &p,
                  STRATA_ROW_LINEAR);
    } else if (paint->kind == STRATA_ROW_CONIC) {
        sweep_row(line, bits, words, width, row, even_odd, 0, 0, 0, _mm256_setzero_si256(), NULL, NULL, 0, NULL, &p,
                  STRATA_ROW_CONIC);
    } else if (paint->kind == STRATA_ROW_IMAGE) {
        sweep_row(line, bits, words, width, row, even_odd, 0, 0, 0, _mm256_setzero_si256(), NULL, NULL, 0, NULL, &p,
                  STRATA_ROW_IMAGE);
    } else {
        sweep_row(line, bits, words, width, row, even_odd, 0, 0, 0, _mm256_setzero_si256(), NULL, NULL, 0, NULL, &p,
                  STRATA_ROW_RADIAL_FOCAL);
    }
}

/// `GradientShader.floor32` and `round32`: ⌊v⌋ and v rounded half away
/// from zero, for v well inside 32 bits.
static inline int32_t floor32(double v) {
    const int32_t i = (int32_t)v;
    return (double)i > v ? i - 1 : i;
}
static inline int32_t round32(double v) { return (int32_t)(v < 0 ? v - 0.5 : v + 0.5); }

/// How each row of a rectangle is covered (`rect_masks_make`): one
/// coverage (`uniform`, `middle`), or the coverage bytes of its first and
/// last stretches of 256 pixels and the coverage between them.
typedef struct {
    uint8_t first[256], last[256];
    int uniform;
    uint8_t middle;
} rect_masks;

/// Where a band kernel's rows go: a band of the cell rasterizer's cells
/// swept, each row through its cells' coverage (`rect` NULL), or the rows
/// of a rectangle in three groups (`rect`: each group's coverage), each
/// row blended through its group's.
typedef struct {
    float *cells;
    long cell_stride;
    uint64_t *bits;
    long words;
    int even_odd;
    const rect_masks *rect;
    long width;
    uint32_t *pixels;
    long row_stride;
    /// A rectangle's three groups of rows: the first ends at row
    /// `ends[0]`, the second at `ends[1]` (each its own `rect` entry).
    long ends[2];
} band_rows;

/// The sources of places `x ..< x + count` (at most 256) of a row's paint
/// at `out` (room for 8 more): the values `paint_run` blends.
__attribute__((target("avx2"), always_inline))
static inline void shade_places(const row_paint *p, int kind, long x, long count, uint32_t *out) {
    if (kind != STRATA_ROW_LINEAR && count >= 16) {
        const int wide = strata_kernel_level() >= 2;
        if (kind == STRATA_ROW_CONIC) {
            (wide ? conic_span512 : conic_span8)(p->table, p->c, x, count, out);
        } else {
            (wide ? radial_focal_span512 : radial_focal_span8)(p->table, p->g, x, count, out);
        }
        return;
    }
    for (long i = 0; i < count; i += 8) _mm256_storeu_si256((__m256i *)(out + i), paint8(p, kind, x + i));
}

/// A rectangle's row of `width` pixels at `d`, its paint `p` of `kind`
/// (a constant where inlined), covered as `m` says: one run at one
/// coverage where the row's three are the same; else in stretches of 256,
/// those holding the first or last pixel shaded once and blended through
/// their coverage bytes, those between as one run.
__attribute__((target("avx2"), always_inline))
static inline void rect_row_parts(uint32_t *d, const row_paint *p, int kind, long width, const rect_masks *m) {
    if (m->uniform) {
        if (m->middle != 0) paint_run(d, p, kind, 0, width, m->middle);
        return;
    }
    uint32_t sources[256 + 8];
    for (long x = 0; x < width; x += 256) {
        const long n = width - x < 256 ? width - x : 256;
        if (x > 0 && x + n < width) {
            if (m->middle != 0) paint_run(d + x, p, kind, x, n, m->middle);
            continue;
        }
        const uint8_t *mask = x == 0 ? m->first : m->last + (256 - n);
        if (kind == STRATA_ROW_LINEAR) {
            // (Shaded as blended: a linear gradient's entries cost less
            // than a second pass.)
            strata_linear_pad_over_avx2(d + x, p->table, (int32_t)((uint32_t)p->u0 + (uint32_t)x * (uint32_t)p->du),
                                        p->du, n, 255, mask);
            continue;
        }
        if (kind == STRATA_ROW_RADIAL_FOCAL && n >= 16 && p->gather) {
            // (The table and g passed as they are: a pointer to the row's
            // paint kept it in memory, and its reads waited on its stores.)
            radial_mask_run512(d + x, p->table, p->g, x, n, mask);
            continue;
        }
        shade_places(p, kind, x, n, sources);
        strata_source_over_mask_avx2(d + x, sources, n, mask);
    }
}

/// The coverage bytes of a rectangle's rows `width` pixels wide covered
/// `cover` (first pixel, those between, last): `first` for the stretch
/// from its first pixel (its last too where it is 256 or less wide),
/// `last` ending at its last pixel.
static void rect_masks_make(rect_masks *m, long width, const uint8_t *cover) {
    const uint8_t left = cover[0], middle = cover[1], right = cover[2];
    // (Two pixels wide, there is nothing between: `middle` is not used.)
    m->uniform = width == 1 || (left == right && (width == 2 || middle == left));
    m->middle = m->uniform ? left : middle;
    if (m->uniform) return;
    // (Only the bytes the rows read: most rectangles are one stretch.)
    __builtin_memset(m->first, middle, (size_t)(width < 256 ? width : 256));
    m->first[0] = left;
    if (width <= 256) {
        m->first[width - 1] = right;
        return;
    }
    __builtin_memset(m->last, middle, sizeof m->last);
    m->last[255] = right;
}

// One function for each kind (a constant in each), so that none carries
// the others' branches or the shaded kinds' stack.
__attribute__((target("avx2")))
static void rect_row_linear(uint32_t *d, long width, const rect_masks *masks, const strata_row_paint *paint) {
    if (!masks->uniform && width <= 256) {
        if (width >= 48) {
            // The first and last eight through their bytes, those between
            // at the row's one coverage: through the bytes, each pixel's
            // source was scaled by its byte and the row was blended a
            // block of eight at a time whatever it held (the same bytes
            // either way: a source scaled by 255 is itself).
            const uint32_t du = (uint32_t)paint->du, last = (uint32_t)width - 8;
            strata_linear_pad_over_avx2(d, paint->table, paint->u0, paint->du, 8, 255, masks->first);
            if (masks->middle != 0) {
                const row_paint p = row_paint_make(paint);
                paint_run(d + 8, &p, STRATA_ROW_LINEAR, 8, width - 16, masks->middle);
            }
            strata_linear_pad_over_avx2(d + last, paint->table, (int32_t)((uint32_t)paint->u0 + last * du), paint->du, 8,
                                        255, masks->first + last);
            return;
        }
        // (One stretch through its bytes: the paint's vectors are the
        // kernel's own.)
        strata_linear_pad_over_avx2(d, paint->table, paint->u0, paint->du, width, 255, masks->first);
        return;
    }
    const row_paint p = row_paint_make(paint);
    rect_row_parts(d, &p, STRATA_ROW_LINEAR, width, masks);
}

__attribute__((target("avx2")))
static void rect_row_conic(uint32_t *d, long width, const rect_masks *masks, const strata_row_paint *paint) {
    const row_paint p = row_paint_make(paint);
    rect_row_parts(d, &p, STRATA_ROW_CONIC, width, masks);
}

__attribute__((target("avx2")))
static void rect_row_radial(uint32_t *d, long width, const rect_masks *masks, const strata_row_paint *paint) {
    const row_paint p = row_paint_make(paint);
    rect_row_parts(d, &p, STRATA_ROW_RADIAL_FOCAL, width, masks);
}

/// Row `r` of `out` with `paint`.
__attribute__((target("avx2"), always_inline))
static inline void band_row(const band_rows *out, long r, const strata_row_paint *paint) {
    if (out->rect) {
        uint32_t *d = out->pixels + r * out->row_stride;
        const rect_masks *masks = out->rect + (r >= out->ends[1] ? 2 : r >= out->ends[0] ? 1 : 0);
        if (paint->kind == STRATA_ROW_LINEAR) {
            rect_row_linear(d, out->width, masks, paint);
        } else if (paint->kind == STRATA_ROW_CONIC) {
            rect_row_conic(d, out->width, masks, paint);
        } else {
            rect_row_radial(d, out->width, masks, paint);
        }
    } else {
        strata_sweep_shaded_row_avx2(out->cells + r * out->cell_stride, out->bits + r * out->words, out->words,
                                     out->width, out->pixels + r * out->row_stride, out->even_odd, paint);
    }
}

/// Row `r` of a band of cells `out` swept with the row paint `p` of
/// `kind`, made once for the band and set again for each row where it
/// changes (made for each row, with the sweep's call, it was a row's
/// fixed cost).
__attribute__((target("avx2"), always_inline))
static inline void sweep_band_row(const band_rows *out, long r, const row_paint *p, int kind) {
    sweep_row(out->cells + r * out->cell_stride, out->bits + r * out->words, out->words, out->width,
              out->pixels + r * out->row_stride, out->even_odd, 0, 0, 0, _mm256_setzero_si256(), NULL, NULL, 0, NULL, p, kind);
}

/// `out` for a rectangle's rows (`rows`: its three groups' counts;
/// `cover`: each group's three coverages), its coverage in `masks`: the
/// rows in all, or −1 where there are none to draw (no width).
static long rect_rows_make(band_rows *out, rect_masks masks[3], uint32_t *pixels, long row_stride, long width,
                           const long rows[3], const uint8_t cover[9]) {
    const long r0 = rows[0] > 0 ? rows[0] : 0, r1 = rows[1] > 0 ? rows[1] : 0, r2 = rows[2] > 0 ? rows[2] : 0;
    if (width <= 0) return -1;
    if (r0 > 0) rect_masks_make(&masks[0], width, cover);
    if (r1 > 0) rect_masks_make(&masks[1], width, cover + 3);
    if (r2 > 0) rect_masks_make(&masks[2], width, cover + 6);
    *out = (band_rows){NULL, 0, NULL, 0, 0, masks, width, pixels, row_stride, {r0, r0 + r1}};
    return r0 + r1 + r2;
}

/// `GradientShader.radialParameters`' row part for the four rows
/// y ... y + 3 of `band`, each row a lane, the polynomials in single
/// precision too where they fit (`GradientShader.radialSingle`): every
/// operation the Swift functions make, in their order (contraction off),
/// so the same values, and their tests made lane by lane on them. Row
/// y + i's entries g[0], g[1], g[11 ... 13], g[15], g[16], g[18 ... 23] go
/// to `g[i]` (the band's own already there, as `radial_band_make` wrote
/// them into `g[0]` at least); entries the Swift function leaves alone for
/// a row are left as they were. (One row at a time, the chain of some
/// forty dependent scalar operations was a quarter of an 8-pixel radial
/// rectangle's time, and a tenth of a large radial ring's.)
__attribute__((target("avx2"), always_inline))
static inline void radial_rows4(double g[4][24], const radial_band *band, long y) {
#pragma clang fp contract(off)
    const __m256d sign = _mm256_set1_pd(-0.0);
#define STRATA_ABS4(v) _mm256_andnot_pd(sign, (v))
#define STRATA_K4(v) _mm256_set1_pd(v)
    const __m256d py = _mm256_add_pd(
        _mm256_setr_pd((double)y, (double)(y + 1), (double)(y + 2), (double)(y + 3)), STRATA_K4(0.5));
    const __m256d pd0x = _mm256_sub_pd(
        _mm256_add_pd(_mm256_add_pd(STRATA_K4(band->apx), _mm256_mul_pd(STRATA_K4(band->c), py)), STRATA_K4(band->tx)),
        STRATA_K4(band->c0x));
    const __m256d pd0y = _mm256_sub_pd(
        _mm256_add_pd(_mm256_add_pd(STRATA_K4(band->bpx), _mm256_mul_pd(STRATA_K4(band->d), py)), STRATA_K4(band->ty)),
        STRATA_K4(band->c0y));
    const __m256d ex = _mm256_add_pd(pd0x, STRATA_K4(band->lasta)), ey = _mm256_add_pd(pd0y, STRATA_K4(band->lastb));
    const __m256d cdx = STRATA_K4(band->cdx), cdy = STRATA_K4(band->cdy);
    const __m256d r0dr = STRATA_K4(band->r0dr), r0r0 = STRATA_K4(band->r0r0);
    const __m256d qb0 = _mm256_add_pd(_mm256_mul_pd(pd0x, cdx), _mm256_mul_pd(pd0y, cdy));
    const __m256d qc0 = _mm256_add_pd(_mm256_mul_pd(pd0x, pd0x), _mm256_mul_pd(pd0y, pd0y));
    const __m256d qb_first = _mm256_add_pd(qb0, r0dr), qc_first = _mm256_sub_pd(qc0, r0r0);
    const __m256d qb_end = _mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(ex, cdx), _mm256_mul_pd(ey, cdy)), r0dr);
    const __m256d qc_end = _mm256_sub_pd(_mm256_add_pd(_mm256_mul_pd(ex, ex), _mm256_mul_pd(ey, ey)), r0r0);
    // swift_max(x, y): y where y ≥ x, else x.
    const __m256d bq = _mm256_blendv_pd(STRATA_ABS4(qb_first), STRATA_ABS4(qb_end),
                                        _mm256_cmp_pd(STRATA_ABS4(qb_end), STRATA_ABS4(qb_first), _CMP_GE_OQ));
    const __m256d cq = _mm256_blendv_pd(STRATA_ABS4(qc_first), STRATA_ABS4(qc_end),
                                        _mm256_cmp_pd(STRATA_ABS4(qc_end), STRATA_ABS4(qc_first), _CMP_GE_OQ));
    const __m256d bound = _mm256_add_pd(bq, cq);
    const double qa = band->qa;
    const __m256d one_root = _mm256_cmp_pd(STRATA_K4(fabs(qa)), _mm256_mul_pd(STRATA_K4(2e-12), _mm256_add_pd(bound, STRATA_K4(1e-300))),
                                           _CMP_GE_OQ);
    const __m256d pp = _mm256_add_pd(_mm256_mul_pd(pd0x, STRATA_K4(g[0][2])), _mm256_mul_pd(pd0y, STRATA_K4(g[0][3])));
    const __m256d g15 = _mm256_sub_pd(_mm256_mul_pd(qb0, qb0), _mm256_mul_pd(STRATA_K4(qa), qc0));
    const __m256d g16 = _mm256_mul_pd(
        STRATA_K4(2), _mm256_sub_pd(_mm256_mul_pd(qb0, STRATA_K4(band->dqb)), _mm256_mul_pd(STRATA_K4(qa), pp)));
    // `GradientShader.radialSingle`'s operations (its constants the band's).
    const double g17 = g[0][17], n = band->n;
    const double k = 255 * fabs(g[0][9]);
    const double kk = k * k, ddd = kk * g17;
    const __m256d b = _mm256_sub_pd(STRATA_K4(0.5), _mm256_mul_pd(STRATA_K4(k), qb0));
    const __m256d iv = _mm256_div_pd(_mm256_xor_pd(g16, sign), STRATA_K4(2 * g17));
    const __m256d dmin = _mm256_mul_pd(
        STRATA_K4(kk),
        _mm256_sub_pd(g15, _mm256_div_pd(_mm256_mul_pd(_mm256_mul_pd(STRATA_K4(0.25), g16), g16), STRATA_K4(g17))));
    const __m256d linear = _mm256_mul_pd(STRATA_K4(k), _mm256_add_pd(STRATA_ABS4(qb0), STRATA_K4(fabs(g[0][14]) * n)));
    const __m256d span = _mm256_add_pd(STRATA_ABS4(iv), STRATA_K4(n));
    const __m256d reach = _mm256_mul_pd(_mm256_mul_pd(STRATA_K4(ddd), span), span);
#undef STRATA_ABS4
#undef STRATA_K4
    double v_pd0x[4], v_pd0y[4], v_bound[4], v_qb0[4], v_g15[4], v_g16[4];
    double v_b[4], v_iv[4], v_dmin[4], v_linear[4], v_reach[4];
    _mm256_storeu_pd(v_pd0x, pd0x); _mm256_storeu_pd(v_pd0y, pd0y); _mm256_storeu_pd(v_bound, bound);
    _mm256_storeu_pd(v_qb0, qb0); _mm256_storeu_pd(v_g15, g15);
    _mm256_storeu_pd(v_g16, g16); _mm256_storeu_pd(v_b, b); _mm256_storeu_pd(v_iv, iv);
    _mm256_storeu_pd(v_dmin, dmin); _mm256_storeu_pd(v_linear, linear); _mm256_storeu_pd(v_reach, reach);
    const float bd = (float)(-k * g[0][14]);
    const int single_band = g17 > 0 && n >= 1 && n <= 0x1p24;
    const int one_root_lanes = _mm256_movemask_pd(one_root);
    for (int i = 0; i < 4; i++) {
        double *r = g[i];
        r[0] = v_pd0x[i]; r[1] = v_pd0y[i];
        r[11] = (one_root_lanes >> i) & 1 ? 0 : 1;
        r[12] = 0;
        r[18] = 0;
        if (!(band->focal && r[11] == 0 && v_bound[i] < 0x1p100)) continue;
        r[13] = v_qb0[i];
        r[15] = v_g15[i];
        r[16] = v_g16[i];
        r[12] = isfinite(r[15]) && isfinite(r[16]) ? 1 : 0;
        if (r[12] == 0 || !single_band) continue;
        const double linear_i = v_linear[i], reach_i = v_reach[i], dmin_i = v_dmin[i];
        if (!(linear_i <= 0x1p13 && reach_i <= 0x1p26 && dmin_i < 0x1p100)) continue;
        r[19] = (float)v_b[i]; r[20] = bd; r[21] = (float)v_iv[i];
        r[22] = (float)ddd; r[23] = (float)(dmin_i > 0 ? dmin_i : 0);
        r[18] = 1;
    }
}

__attribute__((target("avx2")))
void strata_radial_parameters(double *g, const double *k, long x, long y, long count) {
    const radial_band band = radial_band_make(g, k, x, count);
    // (Row y as the first of four: the kernels' own arithmetic.)
    double rows[4][24];
    __builtin_memcpy(rows[0], g, sizeof rows[0]);
    radial_rows4(rows, &band, y);
    __builtin_memcpy(g, rows[0], sizeof rows[0]);
}

/// Whether each of a rectangle's `rows` rows (`out->rect`) is covered
/// alike across (its group's `rect_masks` uniform).
static inline int rect_rows_uniform(const band_rows *out, long rows) {
    const long ends[3] = {out->ends[0], out->ends[1], rows};
    for (int g = 0, start = 0; g < 3; start = (int)ends[g], g++)
        if (ends[g] > start && !out->rect[g].uniform) return 0;
    return 1;
}

static long radial_rect512(const band_rows *out, long rows, const uint32_t *table, const double *k, long x, long y);
static long conic_rect512(const band_rows *out, long rows, const uint32_t *table, const double *k, long x, long y);

/// Whether a rectangle's rows (`out->rect`) go through `radial_rect512`
/// and `conic_rect512`: with AVX-512 and without fast gathers, from 16 to
/// 48 pixels wide and 8 rows or more (a stroked frame's bars of 2 rows
/// went 6 % slower), each row covered alike across (`rect_rows_uniform`).
/// (Wider, a row's set-up is little of its time, and the entries of a
/// smooth gradient mostly fall within a window of the table, `window16`,
/// cheaper than picking them from the whole of it: squares of 64 and 128
/// went 4–26 % slower this way. Rows with partly covered ends, 5 % slower
/// at 33 pixels, go on through their sources' buffer.)
static inline int rect_shades16(const band_rows *out, long rows) {
    return out->width >= 16 && out->width <= 48 && rows >= 8 && strata_kernel_level() >= 2 && !strata_gathers() &&
           rect_rows_uniform(out, rows);
}

__attribute__((target("avx2")))
static long radial_rows(const band_rows *out, long rows, const uint32_t *table, const double *k, long x, long y) {
    double g[4][24];
    const radial_band band = radial_band_make(g[0], k, x, out->width);
    // (No focal polynomials for the band's span: none of its rows.)
    if (!band.focal) return -1;
    for (int i = 1; i < 4; i++) __builtin_memcpy(g[i], g[0], sizeof g[0]);
    // (Cells' rows: one row paint, its parameters and single-precision
    // vectors set again for each row, `sweep_band_row`.)
    const strata_row_paint first = {STRATA_ROW_RADIAL_FOCAL, table, 0, 0, g[0], NULL};
    row_paint p = row_paint_make(&first);
    for (long r = 0; r < rows; r++) {
        double *row = g[r & 3];
        if ((r & 3) == 0) radial_rows4(g, &band, y + r);
        if (row[12] == 0) return r;
        if (out->rect) {
            const strata_row_paint paint = {STRATA_ROW_RADIAL_FOCAL, table, 0, 0, row, NULL};
            band_row(out, r, &paint);
            continue;
        }
        p.g = row;
        p.single = 0;
        row_paint_radial_vectors(&p);
        sweep_band_row(out, r, &p, STRATA_ROW_RADIAL_FOCAL);
    }
    return rows;
}

__attribute__((target("avx2")))
long strata_sweep_radial_rows_avx2(float *cells, long cell_stride, uint64_t *bits, long words, long width, long rows,
                                   uint32_t *pixels, long row_stride, int even_odd, const uint32_t *table,
                                   const double *k, long x, long y) {
    const band_rows out = {cells, cell_stride, bits, words, even_odd, NULL, width, pixels, row_stride, {0, 0}};
    return radial_rows(&out, rows, table, k, x, y);
}

__attribute__((target("avx2")))
long strata_rect_radial_rows_avx2(uint32_t *pixels, long row_stride, long width, const long rows[3], const uint8_t cover[9],
                                  const uint32_t *table, const double *k, long x, long y) {
    band_rows out;
    rect_masks masks[3];
    const long total = rect_rows_make(&out, masks, pixels, row_stride, width, rows, cover);
    if (total < 0) return -1;
    if (rect_shades16(&out, total)) return radial_rect512(&out, total, table, k, x, y);
    return radial_rows(&out, total, table, k, x, y);
}

/// `ImageShader.wrap` repeated: i within 0 ..< n.
static inline long wrap_repeat(long i, long n) {
    if ((unsigned long)i < (unsigned long)n) return i;
    const long r = i % n;
    return r < 0 ? r + n : r;
}

/// `ImageShader.remainder`: u moved by whole periods p into 0 ... p.
static inline double period_remainder(double u, double p) {
#pragma clang fp contract(off)
    if (u >= 0 && u < p) return u;
    if (!(fabs(u) < 0x1p40)) {
        const double r = fmod(u, p);
        return r < 0 ? r + p : r;
    }
    const double q = u / p;
    long k = (long)q;
    if ((double)k > q) k -= 1;
    const double r = u - (double)k * p;
    return r < 0 ? r + p : (r >= p ? r - p : r);
}

__attribute__((target("avx2")))
long strata_sweep_image_rows_avx2(float *cells, long cell_stride, uint64_t *bits, long words, long width, long rows,
                                  uint32_t *pixels, long row_stride, int even_odd, const uint32_t *image,
                                  long image_stride, long image_width, long image_height, int shifted, long dx, long dy,
                                  double d, double tx, double ty, long x, long y) {
    // `ImageShader.unsampledRow` and `rowPaint`: the column once, each
    // row's image row after it.
#pragma clang fp contract(off)
    long column;
    if (shifted) {
        column = x + dx;
    } else {
        const double u0 = (double)x + 0.5 + tx;
        if (!(fabs(u0) < 0x1p31)) return -1;
        const long whole = (long)u0;
        column = (double)whole > u0 ? whole - 1 : whole;
    }
    const strata_row_paint first = {STRATA_ROW_IMAGE, image, (int32_t)wrap_repeat(column, image_width),
                                    (int32_t)image_width, NULL, NULL};
    // (One row paint, its image row set for each row: `sweep_band_row`.)
    const band_rows out = {cells, cell_stride, bits, words, even_odd, NULL, width, pixels, row_stride, {0, 0}};
    row_paint p = row_paint_make(&first);
    for (long r = 0; r < rows; r++) {
        long source_row;
        if (shifted) {
            source_row = wrap_repeat(y + r + dy, image_height);
        } else {
            const double sv = period_remainder(d * ((double)(y + r) + 0.5) + ty, (double)image_height);
            if (!isfinite(sv)) return r;
            // (`wrapNear` of ⌊sv⌋: within a pixel of the image.)
            const long i = (long)(sv + 8) - 8;
            source_row = i < 0 ? i + image_height : (i >= image_height ? i - image_height : i);
        }
        p.table = image + source_row * image_stride;
        sweep_band_row(&out, r, &p, STRATA_ROW_IMAGE);
    }
    return rows;
}

/// A conic gradient's constants for a band's rows
/// (`GradientShader.conicParameters`, the same operations): `conic_band_make`
/// once, then `conic_band_row` for each row.
typedef struct {
    double a, b, c, d, tx, ty, cx, cy, offset, apx, bpx, along;
} conic_band;

/// The constants of the band of `width` pixels from `x` that `k` describes,
/// or 0 where the gradient's turn is not finite.
__attribute__((always_inline))
static inline int conic_band_make(conic_band *g, const double *k, long x, long width) {
#pragma clang fp contract(off)
    g->a = k[0], g->b = k[1], g->c = k[2], g->d = k[3], g->tx = k[4], g->ty = k[5], g->cx = k[6], g->cy = k[7];
    g->offset = k[8] / (2 * 3.14159265358979323846);
    g->offset -= floor(g->offset);
    if (!isfinite(g->offset)) return 0;
    const double px = (double)x + 0.5;
    g->apx = g->a * px, g->bpx = g->b * px;
    g->along = (double)width * swift_max(fabs(g->a), fabs(g->b));
    return 1;
}

/// Row `y`'s first offset from the centre (`*dx`, `*dy`), or 0 where some
/// pixel of the row is 2^20 or more from it.
__attribute__((always_inline))
static inline int conic_band_row(const conic_band *g, long y, double *dx, double *dy) {
#pragma clang fp contract(off)
    const double py = (double)y + 0.5;
    *dx = g->apx + g->c * py + g->tx - g->cx, *dy = g->bpx + g->d * py + g->ty - g->cy;
    return swift_max(fabs(*dx), fabs(*dy)) + g->along < 0x1p20;
}

__attribute__((target("avx2"), always_inline))
static inline long conic_rows_body(const band_rows *out, long rows, const uint32_t *table, const double *k, long x, long y) {
    conic_band g;
    if (!conic_band_make(&g, k, x, out->width)) return -1;
    float f[5] = {0, 0, (float)g.a, (float)g.b, (float)g.offset};
    // (Cells' rows: one row paint reading `f`, `sweep_band_row`.)
    const strata_row_paint paint = {STRATA_ROW_CONIC, table, 0, 0, NULL, f};
    const row_paint p = row_paint_make(&paint);
    for (long r = 0; r < rows; r++) {
        double d0x, d0y;
        if (!conic_band_row(&g, y + r, &d0x, &d0y)) return r;
        f[0] = (float)d0x;
        f[1] = (float)d0y;
        if (out->rect) {
            band_row(out, r, &paint);
        } else {
            sweep_band_row(out, r, &p, STRATA_ROW_CONIC);
        }
    }
    return rows;
}

/// `ImageShader.weight`: a bilinear weight in 1/256 from a fraction in 0 ..< 1.
static inline uint32_t bilinear_weight(double f) {
#pragma clang fp contract(off)
    return (uint32_t)(long)(f * 256 + 0.5);
}

__attribute__((target("avx2")))
long strata_sweep_bilinear_rows_avx2(float *cells, long cell_stride, uint64_t *bits, long words, long width, long rows,
                                     uint32_t *pixels, long row_stride, int even_odd, const uint32_t *image,
                                     long image_stride, long image_width, long image_height, double d, double tx,
                                     double ty, long x, long y) {
    // `ImageShader.shadeTranslated`'s column and weight once, each row's
    // two image rows and weight after it.
#pragma clang fp contract(off)
    const double u0 = (double)x + 0.5 + tx;
    if (!(fabs(u0) < 0x1p31) || image_width < 1 || image_height < 1) return -1;
    const double f = u0 - 0.5, whole = floor(f);
    const uint32_t wx = bilinear_weight(f - whole);
    row_paint p = row_paint_make(&(strata_row_paint){ROW_BILINEAR, image, (int32_t)wrap_repeat((long)whole, image_width),
                                                     (int32_t)image_width, NULL, NULL});
    p.wx = _mm256_set1_epi16((short)wx);
    p.iwx = _mm256_set1_epi16((short)(256 - wx));
    for (long r = 0; r < rows; r++) {
        const double sv = period_remainder(d * ((double)(y + r) + 0.5) + ty, (double)image_height);
        if (!isfinite(sv)) return r;
        const double fv = sv - 0.5;
        // (`ImageShader.floorInt`: fv is at least −½.)
        const long y0 = (long)(fv + 8) - 8;
        const uint32_t wy = bilinear_weight(fv - (double)y0);
        p.table = image + wrap_repeat(y0, image_height) * image_stride;
        p.table1 = image + wrap_repeat(y0 + 1, image_height) * image_stride;
        p.wy = _mm256_set1_epi16((short)wy);
        p.iwy = _mm256_set1_epi16((short)(256 - wy));
        sweep_row(cells + r * cell_stride, bits + r * words, words, width, pixels + r * row_stride, even_odd, 0, 0, 0,
                  _mm256_setzero_si256(), NULL, NULL, 0, NULL, &p, ROW_BILINEAR);
    }
    return rows;
}

__attribute__((target("avx2")))
static long conic_rows(const band_rows *out, long rows, const uint32_t *table, const double *k, long x, long y) {
    return conic_rows_body(out, rows, table, k, x, y);
}

/// `conic_rows` with AVX-512's 32 registers (the same 8-lane operations).
__attribute__((target("avx2,avx512f,avx512vl,avx512bw,avx512dq")))
static long conic_rows512(const band_rows *out, long rows, const uint32_t *table, const double *k, long x, long y) {
    return conic_rows_body(out, rows, table, k, x, y);
}

__attribute__((target("avx2")))
long strata_sweep_conic_rows_avx2(float *cells, long cell_stride, uint64_t *bits, long words, long width, long rows,
                                  uint32_t *pixels, long row_stride, int even_odd, const uint32_t *table,
                                  const double *k, long x, long y) {
    const band_rows out = {cells, cell_stride, bits, words, even_odd, NULL, width, pixels, row_stride, {0, 0}};
    if (strata_kernel_level() >= 2) return conic_rows512(&out, rows, table, k, x, y);
    return conic_rows(&out, rows, table, k, x, y);
}

__attribute__((target("avx2")))
long strata_rect_conic_rows_avx2(uint32_t *pixels, long row_stride, long width, const long rows[3], const uint8_t cover[9],
                                 const uint32_t *table, const double *k, long x, long y) {
    band_rows out;
    rect_masks masks[3];
    const long total = rect_rows_make(&out, masks, pixels, row_stride, width, rows, cover);
    if (total < 0) return -1;
    if (rect_shades16(&out, total)) return conic_rect512(&out, total, table, k, x, y);
    return conic_rows(&out, total, table, k, x, y);
}

/// `linear_rows` for a rectangle's rows (`out->rect`) at most 256 pixels
/// wide whose gradient steps too far a pixel for a window of the table
/// (`linear_window_lanes`), with AVX-512 and without fast gathers: the
/// whole rectangle in one loop, the table's sixteen vectors loaded once
/// for all its rows (`table16`'s picks) and the steps' vectors made once,
/// each row at its one coverage (`linear_run512`'s operations) or through
/// its coverage bytes (`linear_mask_run512`'s), so the same bytes. (Each
/// row through `band_row`, a 32-pixel square spent most of its time
/// setting a row up, not blending it.)
__attribute__((target("avx512f,avx512bw,avx512vl"), noinline))
static long linear_rect512(const band_rows *out, long rows, const uint32_t *table, double a, double b, double c, long x,
                           long y, int32_t du) {
#pragma clang fp contract(off)
    const long width = out->width;
    const double px = (double)x + 0.5, along = (double)(width - 1) * a;
    __m512i t[16];
    table16_load(table, t);
    const __m512i last_entry = table16_last(table);
    const __m512i lanes = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    const __m512i ramp = _mm512_mullo_epi32(lanes, _mm512_set1_epi32(du));
    const __m512i step = _mm512_set1_epi32((int32_t)((uint32_t)du * 16));
    const __m512i top = _mm512_set1_epi32(255 << 16);
    for (long r = 0; r < rows; r++) {
        // `linear_rows`' t, conditions and first place.
        const double tr = a * px + b * ((double)(y + r) + 0.5) + c;
        const double last = tr + along;
        if (!(tr > -1 && tr < 2 && last > -1 && last < 2)) return r;
        const int32_t u0 = floor32((tr * 255 + 0.5) * 65536);
        const rect_masks *m = out->rect + (r >= out->ends[1] ? 2 : r >= out->ends[0] ? 1 : 0);
        uint32_t *d = out->pixels + r * out->row_stride;
        if (m->uniform && m->middle == 0) continue;
        const __m512i c16 = _mm512_set1_epi16((short)m->middle);
        const int scaled = m->middle < 255;
        __m512i u = _mm512_add_epi32(_mm512_set1_epi32(u0), ramp);
        for (long i = 0; i < width; i += 16, u = _mm512_add_epi32(u, step)) {
            const __mmask16 live = width - i >= 16 ? (__mmask16)0xFFFF : (__mmask16)((1u << (width - i)) - 1);
            const __m512i k = _mm512_srli_epi32(_mm512_min_epi32(_mm512_max_epi32(u, _mm512_setzero_si512()), top), 16);
            const __m512i sv = table16_from(t, last_entry, k);
            if (m->uniform) {
                over16(d + i, sv, live, scaled, c16);
                continue;
            }
            const __m128i bytes = _mm_maskz_loadu_epi8(live, m->first + i);
            if (_mm_testz_si128(bytes, bytes)) continue;
            __m512i cv = _mm512_cvtepu8_epi32(bytes);
            cv = _mm512_or_si512(cv, _mm512_slli_epi32(cv, 16));
            blend16(d + i, scale16(sv, cv), live);
        }
    }
    return rows;
}

__attribute__((target("avx2")))
static long linear_rows(const band_rows *out, long rows, const uint32_t *table, double a, double b, double c, long x,
                        long y) {
    // Each product and sum rounded as Swift rounds it: never fused.
#pragma clang fp contract(off)
    const long width = out->width;
    if (width <= 0 || !(fabs(a) < 4)) return -1;
    const double px = (double)x + 0.5, along = (double)(width - 1) * a;
    const int32_t du = round32(a * (255.0 * 65536));
    // (Rows under 24 pixels through their coverage bytes went faster as
    // they were; bars of fewer than 8 rows go on as they were, as with
    // `rect_shades16`.)
    if (out->rect && width <= 256 && width >= 16 && rows >= 8 && strata_kernel_level() >= 2 && !strata_gathers() &&
        linear_window_lanes(du) == 0 && (width >= 24 || rect_rows_uniform(out, rows)))
        return linear_rect512(out, rows, table, a, b, c, x, y, du);
    // (Cells' rows: one row paint, its first place set for each row,
    // `sweep_band_row`.)
    const strata_row_paint first = {STRATA_ROW_LINEAR, table, 0, du, NULL, NULL};
    row_paint p = row_paint_make(&first);
    for (long r = 0; r < rows; r++) {
        // `GradientShader.rowPaint`'s t and `linearPiece`'s conditions.
        const double t = a * px + b * ((double)(y + r) + 0.5) + c;
        const double last = t + along;
        if (!(t > -1 && t < 2 && last > -1 && last < 2)) return r;
        const int32_t u0 = floor32((t * 255 + 0.5) * 65536);
        if (out->rect) {
            const strata_row_paint paint = {STRATA_ROW_LINEAR, table, u0, du, NULL, NULL};
            band_row(out, r, &paint);
        } else {
            p.u0 = u0;
            sweep_band_row(out, r, &p, STRATA_ROW_LINEAR);
        }
    }
    return rows;
}

__attribute__((target("avx2")))
long strata_sweep_linear_rows_avx2(float *cells, long cell_stride, uint64_t *bits, long words, long width, long rows,
                                   uint32_t *pixels, long row_stride, int even_odd, const uint32_t *table, double a,
                                   double b, double c, long x, long y) {
    const band_rows out = {cells, cell_stride, bits, words, even_odd, NULL, width, pixels, row_stride, {0, 0}};
    return linear_rows(&out, rows, table, a, b, c, x, y);
}

__attribute__((target("avx2")))
long strata_rect_linear_rows_avx2(uint32_t *pixels, long row_stride, long width, const long rows[3], const uint8_t cover[9],
                                  const uint32_t *table, double a, double b, double c, long x, long y) {
    band_rows out;
    rect_masks masks[3];
    const long total = rect_rows_make(&out, masks, pixels, row_stride, width, rows, cover);
    if (total < 0) return -1;
    return linear_rows(&out, total, table, a, b, c, x, y);
}

int strata_pixels_have_avx2(void) {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") ? 1 : 0;
}
#else
void strata_blend_span_avx2(uint32_t *d, long count, uint32_t s, uint32_t keep) {
    (void)d; (void)count; (void)s; (void)keep;
}

int strata_source_over_image_row_avx512(uint32_t *d, const uint32_t *row, long width, long column, long count,
                                        uint32_t coverage, const uint8_t *mask, int repeat) {
    (void)d; (void)row; (void)width; (void)column; (void)count; (void)coverage; (void)mask; (void)repeat;
    return 0;
}

void strata_lerp_mask_avx2(uint32_t *d, long count, const uint8_t *mask, uint32_t source) {
    (void)d; (void)count; (void)mask; (void)source;
}

void strata_source_over_mask_avx2(uint32_t *d, const uint32_t *s, long count, const uint8_t *mask) {
    (void)d; (void)s; (void)count; (void)mask;
}
void strata_source_over_columns_avx2(uint32_t *d, long d_stride, const uint32_t *s, long s_stride, long width,
                                     long height, const uint8_t coverage[4]) {
    (void)d; (void)d_stride; (void)s; (void)s_stride; (void)width; (void)height; (void)coverage;
}
void strata_lerp_rows_avx2(const uint32_t *a, const uint32_t *b, long count, uint32_t w, uint32_t *out) {
    (void)a; (void)b; (void)count; (void)w; (void)out;
}
void strata_lerp_neighbours_avx2(uint32_t *v, long count, uint32_t last, uint32_t w) {
    (void)v; (void)count; (void)last; (void)w;
}
long strata_sweep_coverage_avx2(float *line, uint64_t *bits, long words, long width, int even_odd, uint8_t *out,
                                long *runs, long capacity) {
    (void)line; (void)bits; (void)words; (void)width; (void)even_odd; (void)out; (void)runs; (void)capacity;
    return 0;
}
void strata_blend_mask_avx2(uint32_t *d, long count, const uint8_t *mask, uint32_t source) {
    (void)d; (void)count; (void)mask; (void)source;
}

void strata_sweep_shaded_row_avx2(float *line, uint64_t *bits, long words, long width, uint32_t *row, int even_odd,
                                  const strata_row_paint *paint) {
    (void)line; (void)bits; (void)words; (void)width; (void)row; (void)even_odd; (void)paint;
}

long strata_sweep_affine_rows_avx2(float *cells, long cell_stride, uint64_t *bits, long words, long width, long rows,
                                   uint32_t *pixels, long row_stride, int even_odd, const uint32_t *image,
                                   long image_stride, long image_width, long image_height, const double m[6],
                                   int bilinear, int pad, long x, long y) {
    (void)cells; (void)cell_stride; (void)bits; (void)words; (void)width; (void)rows; (void)pixels;
    (void)row_stride; (void)even_odd; (void)image; (void)image_stride; (void)image_width; (void)image_height;
    (void)m; (void)bilinear; (void)pad; (void)x; (void)y;
    return -1;
}
long strata_sweep_bilinear_rows_avx2(float *cells, long cell_stride, uint64_t *bits, long words, long width, long rows,
                                     uint32_t *pixels, long row_stride, int even_odd, const uint32_t *image,
                                     long image_stride, long image_width, long image_height, double d, double tx,
                                     double ty, long x, long y) {
    (void)cells; (void)cell_stride; (void)bits; (void)words; (void)width; (void)rows; (void)pixels;
    (void)row_stride; (void)even_odd; (void)image; (void)image_stride; (void)image_width; (void)image_height;
    (void)d; (void)tx; (void)ty; (void)x; (void)y;
    return -1;
}
long strata_sweep_image_rows_avx2(float *cells, long cell_stride, uint64_t *bits, long words, long width, long rows,
                                  uint32_t *pixels, long row_stride, int even_odd, const uint32_t *image,
                                  long image_stride, long image_width, long image_height, int shifted, long dx, long dy,
                                  double d, double tx, double ty, long x, long y) {
    (void)cells; (void)cell_stride; (void)bits; (void)words; (void)width; (void)rows; (void)pixels;
    (void)row_stride; (void)even_odd; (void)image; (void)image_stride; (void)image_width; (void)image_height;
    (void)shifted; (void)dx; (void)dy; (void)d; (void)tx; (void)ty; (void)x; (void)y;
    return -1;
}
long strata_sweep_conic_rows_avx2(float *cells, long cell_stride, uint64_t *bits, long words, long width, long rows,
                                  uint32_t *pixels, long row_stride, int even_odd, const uint32_t *table,
                                  const double *k, long x, long y) {
    (void)cells; (void)cell_stride; (void)bits; (void)words; (void)width; (void)rows; (void)pixels;
    (void)row_stride; (void)even_odd; (void)table; (void)k; (void)x; (void)y;
    return -1;
}
void strata_radial_parameters(double *g, const double *k, long x, long y, long count) {
    (void)g; (void)k; (void)x; (void)y; (void)count;
}
long strata_sweep_radial_rows_avx2(float *cells, long cell_stride, uint64_t *bits, long words, long width, long rows,
                                   uint32_t *pixels, long row_stride, int even_odd, const uint32_t *table,
                                   const double *k, long x, long y) {
    (void)cells; (void)cell_stride; (void)bits; (void)words; (void)width; (void)rows; (void)pixels;
    (void)row_stride; (void)even_odd; (void)table; (void)k; (void)x; (void)y;
    return -1;
}
long strata_sweep_linear_rows_avx2(float *cells, long cell_stride, uint64_t *bits, long words, long width, long rows,
                                   uint32_t *pixels, long row_stride, int even_odd, const uint32_t *table, double a,
                                   double b, double c, long x, long y) {
    (void)cells; (void)cell_stride; (void)bits; (void)words; (void)width; (void)rows; (void)pixels;
    (void)row_stride; (void)even_odd; (void)table; (void)a; (void)b; (void)c; (void)x; (void)y;
    return -1;
}

long strata_rect_linear_rows_avx2(uint32_t *pixels, long row_stride, long width, const long rows[3], const uint8_t cover[9],
                                  const uint32_t *table, double a, double b, double c, long x, long y) {
    (void)pixels; (void)row_stride; (void)width; (void)rows; (void)cover; (void)table; (void)a; (void)b; (void)c;
    (void)x; (void)y;
    return -1;
}
long strata_rect_radial_rows_avx2(uint32_t *pixels, long row_stride, long width, const long rows[3], const uint8_t cover[9],
                                  const uint32_t *table, const double *k, long x, long y) {
    (void)pixels; (void)row_stride; (void)width; (void)rows; (void)cover; (void)table; (void)k; (void)x; (void)y;
    return -1;
}
long strata_rect_conic_rows_avx2(uint32_t *pixels, long row_stride, long width, const long rows[3], const uint8_t cover[9],
                                 const uint32_t *table, const double *k, long x, long y) {
    (void)pixels; (void)row_stride; (void)width; (void)rows; (void)cover; (void)table; (void)k; (void)x; (void)y;
    return -1;
}

void strata_sweep_rows_avx2(float *cells, long cell_stride, uint64_t *bits, long words, long width, long rows,
                            uint32_t *pixels, long row_stride, int even_odd, uint32_t source, int copy) {
    (void)cells; (void)cell_stride; (void)bits; (void)words; (void)width; (void)rows;
    (void)pixels; (void)row_stride; (void)even_odd; (void)source; (void)copy;
}

void strata_blend_rect_avx2(uint32_t *d, long row_stride, long width, const long *rows, const uint8_t *coverage,
                            uint32_t source, int copy) {
    (void)d; (void)row_stride; (void)width; (void)rows; (void)coverage; (void)source; (void)copy;
}
void strata_blend_block_avx2(uint32_t *d, long row_stride, long width, long height, uint32_t s, uint32_t keep) {
    (void)d; (void)row_stride; (void)width; (void)height; (void)s; (void)keep;
}
void strata_fill_avx2(uint32_t *d, long count, uint32_t value) {
    for (long i = 0; i < count; i++) d[i] = value;
}
void strata_blend_narrow_rect_avx2(uint32_t *d, long row_stride, long width, long height, long room,
                                   const uint32_t pairs[6]) {
    (void)d; (void)row_stride; (void)width; (void)height; (void)room; (void)pairs;
}

int strata_pixels_have_avx2(void) { return 0; }
#endif

int strata_kernel_level_found = 0;
int strata_gathers_found = 0;

int strata_pixels_gather_fast(void) {
#if defined(__x86_64__)
    // Intel's processors from Skylake to Ice Lake and Tiger Lake have their
    // gathers slowed several times by the Gather Data Sampling guard; those
    // with AVX-512 FP16 (Sapphire Rapids on) are not affected, and there a
    // gather of 16 entries measured 2.5 times faster than 16 loads
    // (Benchmarks/RESULTS.md). AMD's Zen 4 and Zen 5 measured no faster: loads
    // there.
    __builtin_cpu_init();
    return strata_pixels_have_avx512() && __builtin_cpu_is("intel") && __builtin_cpu_supports("avx512fp16");
#else
    return 0;
#endif
}

int strata_set_gathers(int on) {
    const int was = strata_gathers();
    __atomic_store_n(&strata_gathers_found, on && strata_kernel_level() >= 2, __ATOMIC_RELAXED);
    return was;
}

// Runs when the program (or library) is loaded, before anything draws.
__attribute__((constructor)) static void strata_find_kernel_level(void) {
    strata_kernel_level_found = strata_pixels_have_avx512() ? 2 : strata_pixels_have_avx2() ? 1 : 0;
    strata_gathers_found = strata_kernel_level_found == 2 && strata_pixels_gather_fast();
}

// A linear gradient's span, padded at both ends, in 16.16 fixed point:
// pixel i takes the table entry ⌊clamp(u0 + i·du, 0, 255·2¹⁶) / 2¹⁶⌋ (u the
// entry plus ½, so the truncation rounds). Eight pixels a step, each u from
// the span's first (no chain of additions), the entries gathered where that
// is fast, else loaded one by one (`load8`).
#if defined(__x86_64__)
__attribute__((target("avx2")))
void strata_linear_pad_span_avx2(const uint32_t *table, int32_t u0, int32_t du, uint32_t *out, long count) {
    const int gather = strata_gathers();
    const __m256i lanes = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    __m256i u = _mm256_add_epi32(_mm256_set1_epi32(u0), _mm256_mullo_epi32(lanes, _mm256_set1_epi32(du)));
    const __m256i step = _mm256_set1_epi32((int32_t)((uint32_t)du * 8));
    long i = 0;
    for (; i + 8 <= count; i += 8) {
        _mm256_storeu_si256((__m256i *)(out + i), linear_entries8(table, u, gather));
        u = _mm256_add_epi32(u, step);
    }
    if (i < count) {
        store_first8(out + i, linear_entries8(table, u, gather), count - i);
    }
}

// The same span blended source over straight onto `d`: through `mask`'s
// bytes when it is given (as `strata_source_over_mask_avx2`), otherwise at
// constant `coverage` (as `strata_source_over_avx2`), with their operations.
__attribute__((target("avx2")))
void strata_linear_pad_over_avx2(uint32_t *d, const uint32_t *table, int32_t u0, int32_t du, long count,
                                 uint32_t coverage, const uint8_t *mask) {
    const int gather = strata_gathers();
    const __m256i lanes = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    __m256i u = _mm256_add_epi32(_mm256_set1_epi32(u0), _mm256_mullo_epi32(lanes, _mm256_set1_epi32(du)));
    const __m256i step = _mm256_set1_epi32((int32_t)((uint32_t)du * 8));
    long i = 0;
    if (mask && count >= 16) {
        // (Sixteen entries from the whole table, `table16`, pay from three
        // blocks on: rows of 17 and 33 pixels went 11 % and 3 % slower
        // than eight at a time.)
        const int window = linear_window_lanes(du) != 0;
        if (strata_kernel_level() >= 2 && (window || gather || count >= 48)) {
            linear_mask_run512(d, table, u0, du, count, mask, window);
            return;
        }
    }
    if (mask) {
        for (; i + 8 <= count; i += 8, u = _mm256_add_epi32(u, step)) {
            uint64_t m;
            __builtin_memcpy(&m, mask + i, 8);
            if (m == 0) continue;
            __m256i *p = (__m256i *)(d + i);
            _mm256_storeu_si256(p, mask8(_mm256_loadu_si256(p), spread8(m), linear_entries8(table, u, gather), 0));
        }
        const long n = count - i;
        if (n <= 0) return;
        uint64_t m = 0;
        for (long j = 0; j < n; j++) m |= (uint64_t)mask[i + j] << (8 * j);
        if (m != 0) few8(d + i, n, m, linear_entries8(table, u, gather), 0);
        return;
    }
    const strata_row_paint given = {STRATA_ROW_LINEAR, table, u0, du, NULL, NULL};
    const row_paint p = row_paint_make(&given);
    paint_run(d, &p, STRATA_ROW_LINEAR, 0, count, coverage);
}

/// `ImageShader.remainder(u, p)` for |u| < 2^40: u moved by whole periods
/// into 0 ... p, the same operations (floor(u / p) is the truncation and
/// step down there), and u itself where it is already in 0 ..< p. When all
/// four are, no division: a pattern placed on the shape it fills (a turned
/// tile, a turned card) mostly reads its first period, and the four
/// divisions of eight pixels were the kernel's longest work.
__attribute__((target("avx2"), always_inline))
static inline __m256d remainder4(__m256d u, __m256d p) {
    const __m256d zero = _mm256_setzero_pd();
    const __m256d inside = _mm256_and_pd(_mm256_cmp_pd(u, zero, _CMP_GE_OQ), _mm256_cmp_pd(u, p, _CMP_LT_OQ));
    if (_mm256_movemask_pd(inside) == 15) return u;
    const __m256d k = _mm256_floor_pd(_mm256_div_pd(u, p));
    __m256d r = _mm256_sub_pd(u, _mm256_mul_pd(k, p));
    const __m256d below = _mm256_cmp_pd(r, zero, _CMP_LT_OQ), above = _mm256_cmp_pd(r, p, _CMP_GE_OQ);
    r = _mm256_blendv_pd(r, _mm256_add_pd(r, p), below);
    r = _mm256_blendv_pd(r, _mm256_sub_pd(r, p), _mm256_andnot_pd(below, above));
    return _mm256_blendv_pd(r, u, inside);
}

/// ⌊v⌋ of eight values v ≥ −8 in two vectors, as `floorInt` (a truncation
/// of v + 8), and the fraction v − ⌊v⌋ as a weight in 1/256, rounded.
__attribute__((target("avx2"), always_inline))
static inline void floor_weight8(__m256d a, __m256d b, __m256i *index, __m256i *weight) {
    const __m256d eight = _mm256_set1_pd(8);
    const __m128i ia = _mm_sub_epi32(_mm256_cvttpd_epi32(_mm256_add_pd(a, eight)), _mm_set1_epi32(8));
    const __m128i ib = _mm_sub_epi32(_mm256_cvttpd_epi32(_mm256_add_pd(b, eight)), _mm_set1_epi32(8));
    const __m256d s = _mm256_set1_pd(256), half = _mm256_set1_pd(0.5);
    const __m128i wa = _mm256_cvttpd_epi32(_mm256_add_pd(_mm256_mul_pd(_mm256_sub_pd(a, _mm256_cvtepi32_pd(ia)), s), half));
    const __m128i wb = _mm256_cvttpd_epi32(_mm256_add_pd(_mm256_mul_pd(_mm256_sub_pd(b, _mm256_cvtepi32_pd(ib)), s), half));
    *index = _mm256_set_m128i(ib, ia);
    *weight = _mm256_set_m128i(wb, wa);
}

/// `ImageShader.wrapNear` for a repeat (i in −1 ... n to 0 ..< n) or,
/// with `pad`, a clamp to 0 ..< n.
__attribute__((target("avx2"), always_inline))
static inline __m256i wrap_near8(__m256i i, __m256i n, int pad) {
    if (pad) return _mm256_max_epi32(_mm256_min_epi32(i, _mm256_sub_epi32(n, _mm256_set1_epi32(1))), _mm256_setzero_si256());
    const __m256i negative = _mm256_cmpgt_epi32(_mm256_setzero_si256(), i);
    const __m256i past = _mm256_cmpgt_epi32(i, _mm256_sub_epi32(n, _mm256_set1_epi32(1)));
    return _mm256_sub_epi32(_mm256_add_epi32(i, _mm256_and_si256(negative, n)), _mm256_and_si256(past, n));
}

/// `ImageShader.reduce` for a repeat (`remainder4`) or a pad (a clamp to
/// −4 ... n + 4).
__attribute__((target("avx2"), always_inline))
static inline __m256d reduce4(__m256d u, __m256d n, int pad) {
    if (pad) return _mm256_max_pd(_mm256_set1_pd(-4), _mm256_min_pd(_mm256_add_pd(n, _mm256_set1_pd(4)), u));
    return remainder4(u, n);
}

/// Eight pixels of a span stored at out + i, those of them before `count`.
__attribute__((target("avx2"), always_inline))
static inline void store_span8(uint32_t *out, long i, long count, __m256i v) {
    if (i + 8 <= count) {
        _mm256_storeu_si256((__m256i *)(out + i), v);
    } else {
        uint32_t last[8];
        _mm256_storeu_si256((__m256i *)last, v);
        for (long j = 0; i + j < count; j++) out[i + j] = last[j];
    }
}

/// The affine kernel's vectors for an image `width` × `height` (rows
/// `stride` apart) along a row from (u0, v0) by (du, dv) a pixel.
__attribute__((target("avx2")))
static affine_row affine_row_make(const uint32_t *pixels, long stride, long width, long height, double u0, double v0,
                                  double du, double dv, int bilinear, int pad) {
    const affine_row r = {pixels,
                          _mm256_set1_pd((double)width),
                          _mm256_set1_pd((double)height),
                          _mm256_set1_pd(du),
                          _mm256_set1_pd(dv),
                          _mm256_set1_pd(u0),
                          _mm256_set1_pd(v0),
                          _mm256_set1_epi32((int)width),
                          _mm256_set1_epi32((int)height),
                          _mm256_set1_epi32((int)stride),
                          bilinear,
                          pad};
    return r;
}

__attribute__((target("avx2"), always_inline))
static inline __m256i affine8(const affine_row *r, __m256d i0) {
    const __m256d half = _mm256_set1_pd(0.5), four = _mm256_set1_pd(4);
    const __m256i one = _mm256_set1_epi32(1);
    const int pad = r->pad;
    // Each pixel's u and v from the row's first (u0 + i·du, as the loop).
    const __m256d i1 = _mm256_add_pd(i0, four);
    const __m256d su0 = reduce4(_mm256_add_pd(r->us, _mm256_mul_pd(i0, r->a)), r->w, pad);
    const __m256d su1 = reduce4(_mm256_add_pd(r->us, _mm256_mul_pd(i1, r->a)), r->w, pad);
    const __m256d sv0 = reduce4(_mm256_add_pd(r->vs, _mm256_mul_pd(i0, r->b)), r->h, pad);
    const __m256d sv1 = reduce4(_mm256_add_pd(r->vs, _mm256_mul_pd(i1, r->b)), r->h, pad);
    if (r->bilinear) {
        __m256i x0, wx, y0, wy;
        floor_weight8(_mm256_sub_pd(su0, half), _mm256_sub_pd(su1, half), &x0, &wx);
        floor_weight8(_mm256_sub_pd(sv0, half), _mm256_sub_pd(sv1, half), &y0, &wy);
        const __m256i c0 = wrap_near8(x0, r->wn, pad), c1 = wrap_near8(_mm256_add_epi32(x0, one), r->wn, pad);
        const __m256i r0 = _mm256_mullo_epi32(wrap_near8(y0, r->hn, pad), r->sn);
        const __m256i r1 = _mm256_mullo_epi32(wrap_near8(_mm256_add_epi32(y0, one), r->hn, pad), r->sn);
        const __m256i p00 = load8(r->pixels, _mm256_add_epi32(r0, c0)), p10 = load8(r->pixels, _mm256_add_epi32(r0, c1));
        const __m256i p01 = load8(r->pixels, _mm256_add_epi32(r1, c0)), p11 = load8(r->pixels, _mm256_add_epi32(r1, c1));
        // The weights in both 16-bit halves of each lane.
        const __m256i wy2 = _mm256_or_si256(wy, _mm256_slli_epi32(wy, 16));
        const __m256i wx2 = _mm256_or_si256(wx, _mm256_slli_epi32(wx, 16));
        const __m256i full = _mm256_set1_epi16(256);
        const __m256i iwy = _mm256_sub_epi16(full, wy2), iwx = _mm256_sub_epi16(full, wx2);
        return lerp8(lerp8(p00, p01, wy2, iwy), lerp8(p10, p11, wy2, iwy), wx2, iwx);
    }
    __m256i x0, wx, y0, wy;
    floor_weight8(su0, su1, &x0, &wx);
    floor_weight8(sv0, sv1, &y0, &wy);
    return load8(r->pixels,
                 _mm256_add_epi32(_mm256_mullo_epi32(wrap_near8(y0, r->hn, pad), r->sn), wrap_near8(x0, r->wn, pad)));
}

__attribute__((target("avx2")))
void strata_affine_span_avx2(const uint32_t *pixels, long stride, long width, long height, double u0, double v0,
                             double du, double dv, long count, uint32_t *out, int bilinear, int pad) {
    const affine_row r = affine_row_make(pixels, stride, width, height, u0, v0, du, dv, bilinear, pad);
    const __m256d eight = _mm256_set1_pd(8);
    __m256d index = _mm256_setr_pd(0, 1, 2, 3);
    for (long i = 0; i < count; i += 8, index = _mm256_add_pd(index, eight)) store_span8(out, i, count, affine8(&r, index));
}

__attribute__((target("avx2")))
long strata_sweep_affine_rows_avx2(float *cells, long cell_stride, uint64_t *bits, long words, long width, long rows,
                                   uint32_t *pixels, long row_stride, int even_odd, const uint32_t *image,
                                   long image_stride, long image_width, long image_height, const double m[6],
                                   int bilinear, int pad, long x, long y) {
    // `ImageShader.shade`'s u and v at the row's first pixel and its
    // kernel's reach, each row.
#pragma clang fp contract(off)
    if (image_width < 1 || image_height < 1) return -1;
    const double px = (double)x + 0.5, last = (double)(width - 1 > 0 ? width - 1 : 0);
    row_paint p = row_paint_make(&(strata_row_paint){ROW_AFFINE, NULL, 0, 0, NULL, NULL});
    for (long r = 0; r < rows; r++) {
        const double py = (double)(y + r) + 0.5;
        const double u = m[0] * px + m[2] * py + m[4], v = m[1] * px + m[3] * py + m[5];
        const double reach = swift_max(swift_max(fabs(u), fabs(u + last * m[0])), swift_max(fabs(v), fabs(v + last * m[1])));
        if (!(reach < 0x1p40)) return r;
        const affine_row a = affine_row_make(image, image_stride, image_width, image_height, u, v, m[0], m[1], bilinear, pad);
        p.affine = &a;
        sweep_row(cells + r * cell_stride, bits + r * words, words, width, pixels + r * row_stride, even_odd, 0, 0, 0,
                  _mm256_setzero_si256(), NULL, NULL, 0, NULL, &p, ROW_AFFINE);
    }
    return rows;
}

__attribute__((target("avx2")))
int strata_scaled_span_avx2(const uint32_t *pixels, long stride, long width, long height, double u0, double v0,
                            double du, long count, uint32_t *out) {
    if (count <= 0) return 1;
    const __m256d w = _mm256_set1_pd((double)width), h = _mm256_set1_pd((double)height);
    const __m256d a = _mm256_set1_pd(du), us = _mm256_set1_pd(u0), half = _mm256_set1_pd(0.5), four = _mm256_set1_pd(4);
    const __m256i wn = _mm256_set1_epi32((int)width), one = _mm256_set1_epi32(1);
    // The row pair and its weight, by the affine kernel's operations (every
    // lane of it computes these from v0 when dv is 0).
    __m256i y0v, wyv;
    const __m256d sv = _mm256_sub_pd(reduce4(_mm256_set1_pd(v0), h, 1), half);
    floor_weight8(sv, sv, &y0v, &wyv);
    const __m256i hn = _mm256_set1_epi32((int)height);
    const int row0 = _mm256_cvtsi256_si32(wrap_near8(y0v, hn, 1));
    const int row1 = _mm256_cvtsi256_si32(wrap_near8(_mm256_add_epi32(y0v, one), hn, 1));
    const uint32_t wy = (uint32_t)_mm256_cvtsi256_si32(wyv);
    // The columns the first and the last pixel read: u grows (or shrinks)
    // with the index, and so do the clamped columns, so every pixel reads
    // within them.
    __m256i xf, wf;
    const __m256d ends = _mm256_setr_pd(0, (double)(count - 1), 0, 0);
    const __m256d su = _mm256_sub_pd(reduce4(_mm256_add_pd(us, _mm256_mul_pd(ends, a)), w, 1), half);
    floor_weight8(su, su, &xf, &wf);
    const __m256i xl = _mm256_permutevar8x32_epi32(xf, one);
    const __m256i lo = wrap_near8(_mm256_min_epi32(xf, xl), wn, 1);
    const __m256i hi = wrap_near8(_mm256_add_epi32(_mm256_max_epi32(xf, xl), one), wn, 1);
    const int first = _mm256_cvtsi256_si32(lo), columns = _mm256_cvtsi256_si32(hi) - first + 1;
    if (columns > 1024 || columns > 2 * count + 8) return 0;
    uint32_t mixed[1024];
    strata_lerp_rows_avx2(pixels + (long)row0 * stride + first, pixels + (long)row1 * stride + first, columns, wy, mixed);
    const __m256i base = _mm256_set1_epi32(first);
    const __m256i full = _mm256_set1_epi16(256);
    __m256d index = _mm256_setr_pd(0, 1, 2, 3);
    for (long i = 0; i < count; i += 8) {
        // As the affine kernel: u0 + i·du, clamped, its column and weight.
        const __m256d i0 = index, i1 = _mm256_add_pd(index, four);
        index = _mm256_add_pd(i1, four);
        const __m256d su0 = reduce4(_mm256_add_pd(us, _mm256_mul_pd(i0, a)), w, 1);
        const __m256d su1 = reduce4(_mm256_add_pd(us, _mm256_mul_pd(i1, a)), w, 1);
        __m256i x0, wx;
        floor_weight8(_mm256_sub_pd(su0, half), _mm256_sub_pd(su1, half), &x0, &wx);
        // Lanes past the span's end read column `first` (their u is past
        // the last pixel's, maybe past the columns mixed).
        const __m256i live = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(count - i)), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
        const __m256i c0 = _mm256_and_si256(live, _mm256_sub_epi32(wrap_near8(x0, wn, 1), base));
        const __m256i c1 = _mm256_and_si256(live, _mm256_sub_epi32(wrap_near8(_mm256_add_epi32(x0, one), wn, 1), base));
        const __m256i wx2 = _mm256_or_si256(wx, _mm256_slli_epi32(wx, 16));
        const __m256i result = lerp8(load8(mixed, c0), load8(mixed, c1), wx2, _mm256_sub_epi16(full, wx2));
        store_span8(out, i, count, result);
    }
    return 1;
}

/// Eight entries of a ramp from its channels' 16.16 levels (lane j of `v[c]`
/// is entry j's channel c, each within ±2³¹): each level's integer part
/// clamped to 0...255 (two saturating packs: the parts lie within ±2¹⁵),
/// the bytes put in pixel order, then r, g and b multiplied by a as
/// `Pixel.multiply` does, (t·257) >> 16 with t = x·a + 128, which equals
/// its (t + t >> 8) >> 8 for every t below 2¹⁶. Alpha is multiplied by 255,
/// which rounds back to itself.
__attribute__((target("avx2"), always_inline))
static inline __m256i ramp_pixels8(const __m256i v[4]) {
    const __m256i rg = _mm256_packus_epi32(_mm256_srai_epi32(v[0], 16), _mm256_srai_epi32(v[1], 16));
    const __m256i ba = _mm256_packus_epi32(_mm256_srai_epi32(v[2], 16), _mm256_srai_epi32(v[3], 16));
    // Bytes, per 128-bit half: r of four entries, their g, b, a.
    const __m256i planes = _mm256_packus_epi16(rg, ba);
    const __m256i order = _mm256_setr_epi8(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15,
                                           0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15);
    const __m256i px = _mm256_shuffle_epi8(planes, order);
    const __m256i low = _mm256_set1_epi32(0x00FF00FF);
    const __m256i alphas = _mm256_setr_epi8(3, -1, 3, -1, 7, -1, 7, -1, 11, -1, 11, -1, 15, -1, 15, -1,
                                            3, -1, 3, -1, 7, -1, 7, -1, 11, -1, 11, -1, 15, -1, 15, -1);
    const __m256i aa = _mm256_shuffle_epi8(px, alphas);
    const __m256i a255 = _mm256_or_si256(_mm256_and_si256(aa, _mm256_set1_epi32(0xFFFF)), _mm256_set1_epi32(255 << 16));
    const __m256i bias = _mm256_set1_epi16(128), m257 = _mm256_set1_epi16(257);
    const __m256i rb = _mm256_mulhi_epu16(_mm256_add_epi16(_mm256_mullo_epi16(_mm256_and_si256(px, low), aa), bias), m257);
    const __m256i ag = _mm256_mulhi_epu16(
        _mm256_add_epi16(_mm256_mullo_epi16(_mm256_and_si256(_mm256_srli_epi32(px, 8), low), a255), bias), m257);
    return _mm256_or_si256(rb, _mm256_slli_epi32(ag, 8));
}

/// `count` entries of a ramp from `out`: entry k's channel c is
/// start[c] + k·step[c] (the caller keeps every such sum within ±2³⁰).
__attribute__((target("avx2"), always_inline))
static inline void ramp_entries(uint32_t *out, long count, const int32_t start[4], const int32_t step[4]) {
    // Eight entries a block, one channel a vector: lane j is entry k + j.
    const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    __m256i v[4], s8[4];
    for (int c = 0; c < 4; c++) {
        const __m256i st = _mm256_set1_epi32(step[c]);
        v[c] = _mm256_add_epi32(_mm256_set1_epi32(start[c]), _mm256_mullo_epi32(lane, st));
        s8[c] = _mm256_slli_epi32(st, 3);
    }
    long k = 0;
    for (; k + 8 <= count; k += 8) {
        _mm256_storeu_si256((__m256i *)(out + k), ramp_pixels8(v));
        for (int c = 0; c < 4; c++) v[c] = _mm256_add_epi32(v[c], s8[c]);
    }
    // The last block's lanes past `count` are left alone: every entry
    // comes from the same vector operations.
    if (k < count) store_first8(out + k, ramp_pixels8(v), count - k);
}

/// `ramp_pixels8` sixteen entries wide (AVX-512: the same operations in
/// each 128-bit lane, four entries each, so the same entries).
__attribute__((target("avx2,avx512f,avx512bw,avx512vl"), always_inline))
static inline __m512i ramp_pixels16(const __m512i v[4]) {
    const __m512i rg = _mm512_packus_epi32(_mm512_srai_epi32(v[0], 16), _mm512_srai_epi32(v[1], 16));
    const __m512i ba = _mm512_packus_epi32(_mm512_srai_epi32(v[2], 16), _mm512_srai_epi32(v[3], 16));
    const __m512i planes = _mm512_packus_epi16(rg, ba);
    const __m512i order = _mm512_broadcast_i32x4(_mm_setr_epi8(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15));
    const __m512i px = _mm512_shuffle_epi8(planes, order);
    const __m512i low = _mm512_set1_epi32(0x00FF00FF);
    const __m512i alphas = _mm512_broadcast_i32x4(_mm_setr_epi8(3, -1, 3, -1, 7, -1, 7, -1, 11, -1, 11, -1, 15, -1, 15, -1));
    const __m512i aa = _mm512_shuffle_epi8(px, alphas);
    const __m512i a255 = _mm512_or_si512(_mm512_and_si512(aa, _mm512_set1_epi32(0xFFFF)), _mm512_set1_epi32(255 << 16));
    const __m512i bias = _mm512_set1_epi16(128), m257 = _mm512_set1_epi16(257);
    const __m512i rb = _mm512_mulhi_epu16(_mm512_add_epi16(_mm512_mullo_epi16(_mm512_and_si512(px, low), aa), bias), m257);
    const __m512i ag = _mm512_mulhi_epu16(
        _mm512_add_epi16(_mm512_mullo_epi16(_mm512_and_si512(_mm512_srli_epi32(px, 8), low), a255), bias), m257);
    return _mm512_or_si512(rb, _mm512_slli_epi32(ag, 8));
}

/// `ramp_entries` sixteen entries a block (AVX-512): the same entries,
/// half the blocks for a table's 256.
__attribute__((target("avx2,avx512f,avx512bw,avx512vl"), noinline))
static void ramp_entries512(uint32_t *out, long count, const int32_t start[4], const int32_t step[4]) {
    const __m512i lane = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    __m512i v[4], s16[4];
    for (int c = 0; c < 4; c++) {
        const __m512i st = _mm512_set1_epi32(step[c]);
        v[c] = _mm512_add_epi32(_mm512_set1_epi32(start[c]), _mm512_mullo_epi32(lane, st));
        s16[c] = _mm512_slli_epi32(st, 4);
    }
    for (long k = 0; k < count; k += 16) {
        const __mmask16 live = count - k >= 16 ? (__mmask16)0xFFFF : (__mmask16)((1u << (count - k)) - 1);
        _mm512_mask_storeu_epi32(out + k, live, ramp_pixels16(v));
        for (int c = 0; c < 4; c++) v[c] = _mm512_add_epi32(v[c], s16[c]);
    }
}

__attribute__((target("avx2")))
void strata_gradient_ramp_avx2(uint32_t *out, long count, const int32_t start[4], const int32_t step[4]) {
    ramp_entries(out, count, start, step);
}

/// j/255 for j in 0 ... 256 (`GradientTablePlan.places`).
static double entry_places[257];

__attribute__((constructor)) static void strata_fill_entry_places(void) {
    for (int j = 0; j <= 256; j++) entry_places[j] = (double)j / 255;
}

/// `GradientTablePlan.firstEntry`: the first j in 0 ... 256 with
/// j/255 > location (>= with `or_at`).
static inline long first_entry(double location, int or_at) {
#define STRATA_PAST(j) (or_at ? entry_places[j] >= location : entry_places[j] > location)
    long j = (long)(location * 255);
    if (j > 0 && STRATA_PAST(j - 1)) j -= 1;
    if (j < 256 && !STRATA_PAST(j)) j += 1;
    if ((j > 0 && STRATA_PAST(j - 1)) || (j < 256 && !STRATA_PAST(j))) {
        j = 0;
        while (j < 256 && !STRATA_PAST(j)) j++;
    }
    return j;
#undef STRATA_PAST
}

/// `Color.byte`: 0 for v ≤ 0 or NaN, 255 from 1, else v·255 rounded half
/// away from zero.
static inline uint32_t color_byte(double v) {
    if (!(v > 0)) return 0;
    if (v >= 1) return 255;
    const double x = v * 255;
    const long r = (long)(x + 0.5);
    return (uint32_t)((double)r - x > 0.5 ? r - 1 : r);
}

static inline uint32_t multiply_byte(uint32_t x, uint32_t y) {
    const uint32_t t = x * y + 128;
    return (t + (t >> 8)) >> 8;
}

/// `packed(_:)` in `GradientTablePlan.replan`: the colour premultiplied,
/// its alpha times `alpha`.
static inline uint32_t packed_stop(const double *color, double alpha) {
    double av = color[3] * alpha;
    av = av > 0 ? (av < 1 ? av : 1) : 0;
    const uint32_t a = color_byte(av);
    return multiply_byte(color_byte(color[0]), a) | multiply_byte(color_byte(color[1]), a) << 8 |
           multiply_byte(color_byte(color[2]), a) << 16 | a << 24;
}

/// `fixed(_:)` in `GradientTablePlan.replan` for four values at once:
/// v·255·2¹⁶ rounded half away from zero, held at ±2⁵⁰, NaN as 0.
__attribute__((target("avx2"), always_inline))
static inline void fixed4(__m256d v, int64_t out[4]) {
#pragma clang fp contract(off)
    const __m256d x = _mm256_mul_pd(v, _mm256_set1_pd(255.0 * 65536));
    const __m256d sign = _mm256_set1_pd(-0.0);
    const __m256d m = _mm256_andnot_pd(sign, x);
    const __m256d limit = _mm256_set1_pd(0x1p50);
    // Below 2⁵⁰ (and not NaN): |x| + ½ truncated, less one where the
    // addition rounded up past |x| + ½.
    const __m256d inside = _mm256_cmp_pd(m, limit, _CMP_LT_OQ);
    const __m256d mc = _mm256_and_pd(inside, m);
    __m256d r = _mm256_round_pd(_mm256_add_pd(mc, _mm256_set1_pd(0.5)), _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC);
    const __m256d over = _mm256_cmp_pd(_mm256_sub_pd(r, mc), _mm256_set1_pd(0.5), _CMP_GT_OQ);
    r = _mm256_sub_pd(r, _mm256_and_pd(over, _mm256_set1_pd(1)));
    // At or past 2⁵⁰: 2⁵⁰; NaN: 0.
    const __m256d big = _mm256_cmp_pd(m, limit, _CMP_GE_OQ);
    r = _mm256_blendv_pd(r, limit, big);
    double d[4], xs[4];
    _mm256_storeu_pd(d, r);
    _mm256_storeu_pd(xs, x);
    for (int c = 0; c < 4; c++) out[c] = xs[c] < 0 ? -(int64_t)d[c] : (int64_t)d[c];
}

__attribute__((target("avx2")))
int strata_gradient_table_avx2(uint32_t *out, const double *stops, long stride, long count, double alpha) {
    // Each product and sum rounded as Swift rounds it: never fused.
#pragma clang fp contract(off)
    if (count <= 0) {
        for (int j = 0; j < 256; j++) out[j] = 0;
        return 1;
    }
    const double *first = stops, *last = stops + (count - 1) * stride;
    // Before the first stop (t ≤ its location), the first colour.
    long i = first_entry(first[4], 0);
    if (i > 0) {
        const uint32_t c = packed_stop(first, alpha);
        for (long j = 0; j < i; j++) out[j] = c;
    }
    const long last_entry = first_entry(last[4], 1);
    const __m256d alphas = _mm256_setr_pd(1, 1, 1, alpha);
    for (long segment = 1; segment < count && i < last_entry; segment++) {
        const double *a = stops + (segment - 1) * stride, *b = stops + segment * stride;
        long end = first_entry(b[4], 0);
        if (end > last_entry) end = last_entry;
        if (end <= i) continue;
        const double span = b[4] - a[4];
        const __m256d c0 = _mm256_mul_pd(_mm256_loadu_pd(a), alphas);
        const __m256d dc = _mm256_sub_pd(_mm256_mul_pd(_mm256_loadu_pd(b), alphas), c0);
        const double f0 = span > 0 ? (entry_places[i] - a[4]) / span : 1;
        const double df = span > 0 ? 1 / (255 * span) : 0;
        int64_t start[4], step[4];
        fixed4(_mm256_add_pd(c0, _mm256_mul_pd(dc, _mm256_set1_pd(f0))), start);
        fixed4(_mm256_mul_pd(dc, _mm256_set1_pd(df)), step);
        int32_t s32[4], d32[4];
        for (int c = 0; c < 4; c++) {
            const int64_t s0 = start[c] + 32768;
            // As `kernelValues`: every sum over the run within 32 bits.
            if (s0 >= (1L << 30) || s0 <= -(1L << 30) || step[c] >= (1L << 22) || step[c] <= -(1L << 22)) return 0;
            s32[c] = (int32_t)s0;
            d32[c] = (int32_t)step[c];
        }
        if (end - i >= 16 && strata_kernel_level() >= 2) {
            ramp_entries512(out + i, end - i, s32, d32);
        } else {
            ramp_entries(out + i, end - i, s32, d32);
        }
        i = end;
    }
    // From the last stop on, the last colour.
    if (i < 256) {
        const uint32_t c = packed_stop(last, alpha);
        for (long j = i; j < 256; j++) out[j] = c;
    }
    return 1;
}
#else
void strata_linear_pad_span_avx2(const uint32_t *table, int32_t u0, int32_t du, uint32_t *out, long count) {
    (void)table; (void)u0; (void)du; (void)out; (void)count;
}
void strata_linear_pad_over_avx2(uint32_t *d, const uint32_t *table, int32_t u0, int32_t du, long count,
                                 uint32_t coverage, const uint8_t *mask) {
    (void)d; (void)table; (void)u0; (void)du; (void)count; (void)coverage; (void)mask;
}
void strata_gradient_ramp_avx2(uint32_t *out, long count, const int32_t start[4], const int32_t step[4]) {
    (void)out; (void)count; (void)start; (void)step;
}
int strata_gradient_table_avx2(uint32_t *out, const double *stops, long stride, long count, double alpha) {
    (void)out; (void)stops; (void)stride; (void)count; (void)alpha;
    return 0;
}
void strata_affine_span_avx2(const uint32_t *pixels, long stride, long width, long height, double u0, double v0,
                             double du, double dv, long count, uint32_t *out, int bilinear, int pad) {
    (void)pixels; (void)stride; (void)width; (void)height; (void)u0; (void)v0; (void)du; (void)dv; (void)count;
    (void)out; (void)bilinear; (void)pad;
}
int strata_scaled_span_avx2(const uint32_t *pixels, long stride, long width, long height, double u0, double v0,
                            double du, long count, uint32_t *out) {
    (void)pixels; (void)stride; (void)width; (void)height; (void)u0; (void)v0; (void)du; (void)count; (void)out;
    return 0;
}
#endif

// Source over from an array of premultiplied sources (gradients, images):
// d = s + d·(255 − αs)/255, each channel rounded as `scalePacked` does
// ((x·k + 128)·257 >> 16, exact for /255). With `coverage` below 255 the
// sources are first scaled by it, the same way. The portable loop stores
// runs of opaque sources and skips runs of transparent ones; the AVX2
// loops blend every block (`over8`), which gives the same bytes (`scale8`
// and `scale_packed` are above).
#if defined(__x86_64__)
// One row: the exported kernel's body, inlined where a rectangle's rows
// are taken in one call (at full coverage, `scaled` folds away).
__attribute__((target("avx2"), always_inline))
static inline void source_over_row(uint32_t *d, const uint32_t *s, long count, uint32_t coverage) {
    if (count >= 16 && strata_kernel_level() >= 2) {
        source_over_run512(d, s, count, coverage);
        return;
    }
    long i = 0;
    const __m256i c16 = _mm256_set1_epi16((short)coverage);
    const int scaled = coverage < 255;
    for (; i + 8 <= count; i += 8) {
        __m256i sv = _mm256_loadu_si256((const __m256i *)(s + i));
        if (scaled) sv = scale8(sv, c16);
        over8(d + i, sv);
    }
    for (; i < count; i++) {
        uint32_t p = scaled ? scale_packed(s[i], coverage) : s[i];
        uint32_t keep = 255 - (p >> 24);
        d[i] = keep == 0 ? p : p + scale_packed(d[i], keep);
    }
}

__attribute__((target("avx2")))
void strata_source_over_avx2(uint32_t *d, const uint32_t *s, long count, uint32_t coverage) {
    source_over_row(d, s, count, coverage);
}

// `height` rows of `width` pixels, each row as `strata_source_over_avx2`
// at full coverage (the same operations, so the same bytes), in one call:
// an image drawn 1:1 on whole pixels, whose rows of a few pixels each
// paid a call and its set-up (an 8 × 8 image took eight).
// With AVX-512, rows of 16 pixels and more sixteen at a time in one loop
// (`source_over_run512`'s operations, so its bytes): each row called that
// kernel, and images of 16 to 128 pixels drew 25–43 % slower.
__attribute__((target("avx512f,avx512bw,avx512vl"), noinline))
static void source_over_rect512(uint32_t *d, long d_stride, const uint32_t *s, long s_stride, long width,
                                long height) {
    const __m512i c16 = _mm512_set1_epi16(255);
    const long whole = width & ~15L;
    const __mmask16 tail = (__mmask16)((1u << (width - whole)) - 1);
    for (long y = 0; y < height; y++, d += d_stride, s += s_stride) {
        for (long i = 0; i < whole; i += 16) over16(d + i, _mm512_loadu_si512(s + i), (__mmask16)0xFFFF, 0, c16);
        if (tail) over16(d + whole, _mm512_maskz_loadu_epi32(tail, s + whole), tail, 0, c16);
    }
}

/// `strata_source_over_image_row` with AVX2: the sources copied out
/// eight at a time, 256 at most at once, then blended by
/// `strata_source_over_mask_avx2` or `source_over_row` (so the same
/// bytes as copying them out and blending them). Repeated, from the row
/// followed by its first eight pixels again (`tiled`, wrapped as often as
/// a row under 8 pixels needs), each step of eight one load from it;
/// padded, loads from the row where the eight are inside it, the edge
/// pixels one by one where they are not.
__attribute__((target("avx2"), noinline))
static void source_over_image_row8(uint32_t *d, const uint32_t *row, long width, long column, long count,
                                   uint32_t coverage, const uint8_t *mask, int repeat) {
    uint32_t tiled[32 + 8], sources[256];
    if (repeat) {
        for (long k = 0, j = 0; k < width + 8; k++) {
            tiled[k] = row[j];
            j = j + 1 == width ? 0 : j + 1;
        }
    }
    long at = column;
    for (long done = 0; done < count; done += 256) {
        const long n = count - done < 256 ? count - done : 256;
        for (long i = 0; i < n; i += 8) {
            __m256i v;
            if (repeat) {
                v = _mm256_loadu_si256((const __m256i *)(tiled + at));
                at += 8;
                while (at >= width) at -= width;
            } else if (at >= 0 && at + 8 <= width) {
                v = _mm256_loadu_si256((const __m256i *)(row + at));
                at += 8;
            } else {
                uint32_t e[8];
                for (int k = 0; k < 8; k++, at++) e[k] = row[at < 0 ? 0 : (at >= width ? width - 1 : at)];
                v = _mm256_loadu_si256((const __m256i *)e);
            }
            _mm256_storeu_si256((__m256i *)(sources + i), v);
        }
        if (mask) {
            strata_source_over_mask_avx2(d + done, sources, n, mask + done);
        } else {
            source_over_row(d + done, sources, n, coverage);
        }
    }
}

int strata_source_over_image_row(uint32_t *d, const uint32_t *row, long width, long column, long count,
                                 uint32_t coverage, const uint8_t *mask, int repeat) {
    if (strata_kernel_level() < 1 || width < 1 || width > 32 || count < 0 || count > (1L << 24)) return 0;
    if (repeat ? (column < 0 || column >= width) : (column < -(1L << 24) || column > (1L << 24))) return 0;
    if (strata_kernel_level() >= 2) return strata_source_over_image_row_avx512(d, row, width, column, count, coverage, mask, repeat);
    if (count > 0) source_over_image_row8(d, row, width, column, count, coverage, mask, repeat != 0);
    return 1;
}

__attribute__((target("avx2")))
void strata_source_over_rect_avx2(uint32_t *d, long d_stride, const uint32_t *s, long s_stride, long width,
                                  long height) {
    // (An 8-pixel image's rows measured 6 % slower through it.)
    if (width >= 16 && strata_kernel_level() >= 2) {
        source_over_rect512(d, d_stride, s, s_stride, width, height);
        return;
    }
    for (long y = 0; y < height; y++, d += d_stride, s += s_stride) source_over_row(d, s, width, 255);
}
#else
void strata_source_over_avx2(uint32_t *d, const uint32_t *s, long count, uint32_t coverage) {
    (void)d; (void)s; (void)count; (void)coverage;
}
void strata_source_over_rect_avx2(uint32_t *d, long d_stride, const uint32_t *s, long s_stride, long width,
                                  long height) {
    (void)d; (void)d_stride; (void)s; (void)s_stride; (void)width; (void)height;
}
int strata_source_over_image_row(uint32_t *d, const uint32_t *row, long width, long column, long count,
                                 uint32_t coverage, const uint8_t *mask, int repeat) {
    (void)d; (void)row; (void)width; (void)column; (void)count; (void)coverage; (void)mask; (void)repeat;
    return 0;
}
#endif

#if defined(__x86_64__)
// The table entries `idx` of pixels `base ... base + 7` of a gradient
// kernel's span (those below `count`), stored at `out`: gathered where
// that is fast (`strata_gathers`), else one load and store each (a gather
// measured no faster on AMD's Zen 4, and costs several times the loads on
// Intel processors under the Gather Data Sampling guard).
// (Blending them in the same pass was slower than this and a blend pass
// after it: the lookup's long chain then held the blend up.)
__attribute__((target("avx2"), always_inline))
static inline void store8(const uint32_t *table, __m256i idx, uint32_t *out, long base, long count) {
    const long n = count - base;
    uint32_t *o = out + base;
    if (strata_gathers()) {
        // (Lanes past the span masked off: their indices are not read.)
        if (n >= 8) {
            _mm256_storeu_si256((__m256i *)o, _mm256_i32gather_epi32((const int *)table, idx, 4));
        } else {
            const __m256i live = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)n), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
            const __m256i e = _mm256_mask_i32gather_epi32(_mm256_setzero_si256(), (const int *)table, idx, live, 4);
            store_first8(o, e, n);
        }
        return;
    }
    if (n >= 8) {
        uint64_t k[4];
        _mm256_storeu_si256((__m256i *)k, idx);
        STRATA_SPILLED(k);
        for (int j = 0; j < 4; j++) {
            o[2 * j] = table[(int32_t)k[j]];
            o[2 * j + 1] = table[(int32_t)(k[j] >> 32)];
        }
    } else {
        int32_t k[8];
        _mm256_storeu_si256((__m256i *)k, idx);
        for (long j = 0; j < n; j++) o[j] = table[k[j]];
    }
}
#endif

/// Sixteen entries `idx` (each 0 ... 256) of a 257-entry table to `*e`
/// from the 32 or 64 entries they fall within, loaded as vectors and
/// picked by permutations, where they do fall within 64: 1, else 0 and
/// nothing done. The least and greatest index come from one reduction of
/// idx and 511 − idx side by side in 16-bit halves. A window starts at the
/// least index, no further than 257 less its size, so it lies within the
/// table. (Sixteen entries looked up one by one were half a wide radial
/// or conic span's time on processors without fast gathers; neighbouring
/// pixels of a smooth gradient mostly lie a few entries apart.)
__attribute__((target("avx512f,avx512vl,avx512dq,avx512bw"), always_inline))
static inline int window16(const uint32_t *table, __m512i idx, __m512i *e) {
    const __m512i w = _mm512_or_si512(idx, _mm512_slli_epi32(_mm512_sub_epi32(_mm512_set1_epi32(511), idx), 16));
    __m512i m = _mm512_min_epu16(w, _mm512_shuffle_i64x2(w, w, 0x4E));
    m = _mm512_min_epu16(m, _mm512_shuffle_i64x2(m, m, 0xB1));
    m = _mm512_min_epu16(m, _mm512_shuffle_epi32(m, (_MM_PERM_ENUM)0x4E));
    m = _mm512_min_epu16(m, _mm512_shuffle_epi32(m, (_MM_PERM_ENUM)0xB1));
    const uint32_t v = (uint32_t)_mm_cvtsi128_si32(_mm512_castsi512_si128(m));
    const int32_t lo = (int32_t)(v & 0xFFFF), spread = 511 - (int32_t)(v >> 16) - lo;
    if (spread < 32) {
        const int32_t at = lo < 225 ? lo : 225;
        *e = pick32(table, at, _mm512_sub_epi32(idx, _mm512_set1_epi32(at)));
        return 1;
    }
    if (spread < 64) {
        const int32_t at = lo < 193 ? lo : 193;
        const __m512i k = _mm512_sub_epi32(idx, _mm512_set1_epi32(at));
        *e = _mm512_mask_blend_epi32(_mm512_test_epi32_mask(k, _mm512_set1_epi32(32)), pick32(table, at, k),
                                     pick32(table, at + 32, k));
        return 1;
    }
    return 0;
}

/// `store8` for sixteen pixels' entries `idx` (AVX-512), those below `count`:
/// a whole sixteen from their window (`window16`) where they have one.
/// `*skip` counts the steps left before a window is tried again: a span
/// whose sixteen spread wider than 64 entries (a steep gradient on a small
/// shape) mostly goes on doing so, and the reduction was then wasted.
__attribute__((target("avx512f,avx512vl,avx512dq,avx512bw"), always_inline))
static inline void store16(const uint32_t *table, __m512i idx, uint32_t *out, long base, long count, int *skip) {
    if (strata_gathers()) {
        const long n = count - base;
        const __mmask16 live = n >= 16 ? (__mmask16)0xFFFF : (__mmask16)((1u << n) - 1);
        _mm512_mask_storeu_epi32(out + base, live, _mm512_mask_i32gather_epi32(_mm512_setzero_si512(), live, idx, table, 4));
        return;
    }
    if (count - base >= 16) {
        __m512i e;
        if (*skip > 0) {
            *skip -= 1;
        } else if (window16(table, idx, &e)) {
            _mm512_storeu_si512(out + base, e);
            return;
        } else {
            *skip = 3;
        }
        _mm512_storeu_si512(out + base, table16(table, idx));
        return;
    }
    // (A few entries past the last sixteen one by one: picking them from
    // the whole table cost a 33-pixel conic row 4 %.)
    if (count - base < 8) {
        store8(table, _mm512_castsi512_si256(idx), out, base, count);
        return;
    }
    _mm512_mask_storeu_epi32(out + base, (__mmask16)((1u << (count - base)) - 1), table16(table, idx));
}

// Pixels i ... i + 3's entries `k`, stored eight at a time: the first four
// wait in `pending` for the next four (or the span's end).
__attribute__((target("avx2"), always_inline))
static inline void store4(const uint32_t *table, __m128i k, __m128i *pending, uint32_t *out, long i, long count) {
    if ((i & 4) == 0) {
        *pending = k;
        if (i + 4 >= count) store8(table, _mm256_set_m128i(k, k), out, i, count);
    } else {
        store8(table, _mm256_set_m128i(k, *pending), out, i - 4, count);
    }
}

// The same for eight pixels (AVX-512).
__attribute__((target("avx512f,avx512vl,avx512dq"), always_inline))
static inline __m256i radial_entries8(__m512d t) {
    const __m512d u = _mm512_min_pd(_mm512_max_pd(t, _mm512_setzero_pd()), _mm512_set1_pd(1));
    const __m512d e = _mm512_mask_blend_pd(_mm512_cmp_pd_mask(t, t, _CMP_ORD_Q), _mm512_set1_pd(256),
                                           _mm512_add_pd(_mm512_mul_pd(u, _mm512_set1_pd(255)), _mm512_set1_pd(0.5)));
    return _mm512_cvttpd_epi32(e);
}

// A padded radial gradient's span, four pixels a step: the operations of
// `GradientShader.shade`'s radial case and `radialT`, in their order (with
// contraction off, above), so the same t and the same table entry.
#if defined(__x86_64__)
__attribute__((target("avx2")))
void strata_radial_pad_span_avx2(const uint32_t *table, const double *g, long count, uint32_t *out) {
    // g: pd0x, pd0y, sx, sy; cdx, cdy, r0, dr; qa, 1/qa, the sign of qa (±1);
    // whether any pixel may take the one-root case (0: none can).
    const __m256d pd0x = _mm256_set1_pd(g[0]), pd0y = _mm256_set1_pd(g[1]);
    const __m256d sx = _mm256_set1_pd(g[2]), sy = _mm256_set1_pd(g[3]);
    const __m256d cdx = _mm256_set1_pd(g[4]), cdy = _mm256_set1_pd(g[5]);
    const __m256d r0 = _mm256_set1_pd(g[6]), dr = _mm256_set1_pd(g[7]);
    const __m256d qa = _mm256_set1_pd(g[8]), inv = _mm256_set1_pd(g[9]), sgn = _mm256_set1_pd(g[10]);
    const __m256d r0r0 = _mm256_set1_pd(g[6] * g[6]), r0dr = _mm256_set1_pd(g[6] * g[7]);
    const __m256d zero = _mm256_setzero_pd(), two = _mm256_set1_pd(2);
    const __m256d sign = _mm256_set1_pd(-0.0), tiny = _mm256_set1_pd(1e-300), eps = _mm256_set1_pd(1e-12);
    const __m256d nan = _mm256_set1_pd(__builtin_nan(""));
    const __m256d aqa = _mm256_set1_pd(__builtin_fabs(g[8]));
    __m256d index = _mm256_setr_pd(0, 1, 2, 3);
    const __m256d four = _mm256_set1_pd(4);
    const int one_root_test = g[11] != 0;
    __m128i pending = _mm_setzero_si128();
    if (g[12] != 0) {
        // A focal point inside the end circle: every pixel takes the larger
        // root, with a radius of at least 0. qb is linear along the span and
        // the discriminant quadratic, so each is a polynomial in the pixel's
        // index (`radialFocalEntry`'s operations): qb0 + i·dqb and
        // D0 + i·(D1 + i·D2).
        // Eight pixels a step (`radial_focal8`, which the row kernel shares).
        const __m256i lanes = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
        for (long i = 0; i < count; i += 8) {
            const __m256d i0 = places4(i);
            const __m256i e = radial_focal8(table, g, i0, _mm256_add_pd(i0, four));
            if (i + 8 <= count) {
                _mm256_storeu_si256((__m256i *)(out + i), e);
            } else {
                store_first8(out + i, e, count - i);
            }
        }
        return;
    }
    for (long i = 0; i < count; i += 4) {
        const __m256d pdx = _mm256_add_pd(pd0x, _mm256_mul_pd(index, sx));
        const __m256d pdy = _mm256_add_pd(pd0y, _mm256_mul_pd(index, sy));
        index = _mm256_add_pd(index, four);
        const __m256d qb = _mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(pdx, cdx), _mm256_mul_pd(pdy, cdy)), r0dr);
        const __m256d qc = _mm256_sub_pd(_mm256_add_pd(_mm256_mul_pd(pdx, pdx), _mm256_mul_pd(pdy, pdy)), r0r0);
        // One root where the circles grow as fast as their centres move.
        __m256d linear = zero, t1 = nan;
        if (one_root_test) {
            const __m256d limit = _mm256_mul_pd(eps, _mm256_add_pd(_mm256_add_pd(_mm256_andnot_pd(sign, qb), _mm256_andnot_pd(sign, qc)), tiny));
            linear = _mm256_cmp_pd(aqa, limit, _CMP_LT_OQ);
        }
        if (_mm256_movemask_pd(linear) != 0) {
            t1 = _mm256_div_pd(qc, _mm256_mul_pd(two, qb));
            t1 = _mm256_blendv_pd(nan, t1, _mm256_and_pd(_mm256_cmp_pd(qb, zero, _CMP_NEQ_UQ),
                                                          _mm256_cmp_pd(_mm256_add_pd(r0, _mm256_mul_pd(t1, dr)), zero, _CMP_GE_OQ)));
        }
        // Two roots: the larger whose radius is not negative. With the root
        // signed as qa, (qb + s)/qa is the larger.
        const __m256d disc = _mm256_sub_pd(_mm256_mul_pd(qb, qb), _mm256_mul_pd(qa, qc));
        const __m256d s = _mm256_mul_pd(_mm256_sqrt_pd(_mm256_max_pd(disc, zero)), sgn);
        const __m256d hi = _mm256_mul_pd(_mm256_add_pd(qb, s), inv), lo = _mm256_mul_pd(_mm256_sub_pd(qb, s), inv);
        const __m256d hiOK = _mm256_cmp_pd(_mm256_add_pd(r0, _mm256_mul_pd(hi, dr)), zero, _CMP_GE_OQ);
        const __m256d loOK = _mm256_cmp_pd(_mm256_add_pd(r0, _mm256_mul_pd(lo, dr)), zero, _CMP_GE_OQ);
        __m256d t2 = _mm256_blendv_pd(_mm256_blendv_pd(nan, lo, loOK), hi, hiOK);
        t2 = _mm256_blendv_pd(nan, t2, _mm256_cmp_pd(disc, zero, _CMP_GE_OQ));
        // Padded: below 0 the first entry, above 1 the last; NaN draws
        // nothing, the transparent entry past the table.
        store4(table, radial_entries4(_mm256_blendv_pd(t2, t1, linear)), &pending, out, i, count);
    }
}

/// The single-precision polynomials' coefficients (g[19 ... 23]) in
/// sixteen lanes.
typedef struct {
    __m512 b, bd, iv, ddd, dmin;
} radial16;

__attribute__((target("avx512f,avx512vl,avx512dq"), always_inline))
static inline radial16 radial16_make(const double *g) {
    return (radial16){_mm512_set1_ps((float)g[19]), _mm512_set1_ps((float)g[20]), _mm512_set1_ps((float)g[21]),
                      _mm512_set1_ps((float)g[22]), _mm512_set1_ps((float)g[23])};
}

/// `radial_single8` sixteen pixels wide.
__attribute__((target("avx512f,avx512vl,avx512dq"), always_inline))
static inline __m512i radial_single16(const radial16 *r, __m512 fi) {
    const __m512 zero = _mm512_setzero_ps();
    const __m512 u = _mm512_sub_ps(fi, r->iv);
    const __m512 disc = _mm512_add_ps(_mm512_mul_ps(_mm512_mul_ps(u, r->ddd), u), r->dmin);
    const __m512 root = _mm512_sqrt_ps(_mm512_max_ps(disc, zero));
    const __m512 place = _mm512_add_ps(_mm512_add_ps(_mm512_mul_ps(r->bd, fi), r->b), root);
    return _mm512_cvttps_epi32(_mm512_min_ps(_mm512_max_ps(place, zero), _mm512_set1_ps(255)));
}

// A focal point inside the end circle (the AVX2 kernel's loop), pixels
// x ... x + count − 1 of the span that g describes, to out[0 ..< count].
__attribute__((target("avx512f,avx512vl,avx512dq,avx512bw")))
static void radial_focal_span512(const uint32_t *table, const double *g, long x, long count, uint32_t *out) {
    if (g[18] != 0) {
        const radial16 r = radial16_make(g);
        __m512 fi = _mm512_add_ps(_mm512_set1_ps((float)x),
                                  _mm512_setr_ps(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));
        int skip = 0;
        for (long i = 0; i < count; i += 16, fi = _mm512_add_ps(fi, _mm512_set1_ps(16))) {
            store16(table, radial_single16(&r, fi), out, i, count, &skip);
        }
        return;
    }
    const __m512d zero = _mm512_setzero_pd(), inv = _mm512_set1_pd(g[9]), eight = _mm512_set1_pd(8);
    const __m512d qb0 = _mm512_set1_pd(g[13]), dqb = _mm512_set1_pd(g[14]);
    const __m512d d0 = _mm512_set1_pd(g[15]), d1 = _mm512_set1_pd(g[16]), d2 = _mm512_set1_pd(g[17]);
    __m512d index = _mm512_add_pd(_mm512_set1_pd((double)x), _mm512_setr_pd(0, 1, 2, 3, 4, 5, 6, 7));
    for (long i = 0; i < count; i += 8) {
        const __m512d qb = _mm512_add_pd(qb0, _mm512_mul_pd(index, dqb));
        const __m512d disc = _mm512_add_pd(d0, _mm512_mul_pd(index, _mm512_add_pd(d1, _mm512_mul_pd(index, d2))));
        index = _mm512_add_pd(index, eight);
        const __m512d t = _mm512_mul_pd(_mm512_sub_pd(qb, _mm512_sqrt_pd(_mm512_max_pd(disc, zero))), inv);
        store8(table, radial_entries8(t), out, i, count);
    }
}

// The same, eight pixels a step with AVX-512: each lane's operations are
// the AVX2 kernel's, so the same t and the same entries, in half the steps
// (and with 32 registers, nothing spilled).
__attribute__((target("avx512f,avx512vl,avx512dq")))
void strata_radial_pad_span_avx512(const uint32_t *table, const double *g, long count, uint32_t *out) {
    const __m512d pd0x = _mm512_set1_pd(g[0]), pd0y = _mm512_set1_pd(g[1]);
    const __m512d sx = _mm512_set1_pd(g[2]), sy = _mm512_set1_pd(g[3]);
    const __m512d cdx = _mm512_set1_pd(g[4]), cdy = _mm512_set1_pd(g[5]);
    const __m512d r0 = _mm512_set1_pd(g[6]), dr = _mm512_set1_pd(g[7]);
    const __m512d qa = _mm512_set1_pd(g[8]), inv = _mm512_set1_pd(g[9]), sgn = _mm512_set1_pd(g[10]);
    const __m512d r0r0 = _mm512_set1_pd(g[6] * g[6]), r0dr = _mm512_set1_pd(g[6] * g[7]);
    const __m512d zero = _mm512_setzero_pd(), two = _mm512_set1_pd(2);
    const __m512d tiny = _mm512_set1_pd(1e-300), eps = _mm512_set1_pd(1e-12);
    const __m512d nan = _mm512_set1_pd(__builtin_nan(""));
    const __m512d aqa = _mm512_set1_pd(__builtin_fabs(g[8]));
    const __m512d eight = _mm512_set1_pd(8);
    __m512d index = _mm512_setr_pd(0, 1, 2, 3, 4, 5, 6, 7);
    const int one_root_test = g[11] != 0;
    if (g[12] != 0) {
        radial_focal_span512(table, g, 0, count, out);
        return;
    }
    for (long i = 0; i < count; i += 8) {
        const __m512d pdx = _mm512_add_pd(pd0x, _mm512_mul_pd(index, sx));
        const __m512d pdy = _mm512_add_pd(pd0y, _mm512_mul_pd(index, sy));
        index = _mm512_add_pd(index, eight);
        const __m512d qb = _mm512_add_pd(_mm512_add_pd(_mm512_mul_pd(pdx, cdx), _mm512_mul_pd(pdy, cdy)), r0dr);
        const __m512d qc = _mm512_sub_pd(_mm512_add_pd(_mm512_mul_pd(pdx, pdx), _mm512_mul_pd(pdy, pdy)), r0r0);
        __mmask8 linear = 0;
        __m512d t1 = nan;
        if (one_root_test) {
            const __m512d limit = _mm512_mul_pd(eps, _mm512_add_pd(_mm512_add_pd(_mm512_abs_pd(qb), _mm512_abs_pd(qc)), tiny));
            linear = _mm512_cmp_pd_mask(aqa, limit, _CMP_LT_OQ);
        }
        if (linear != 0) {
            t1 = _mm512_div_pd(qc, _mm512_mul_pd(two, qb));
            const __mmask8 ok = _mm512_cmp_pd_mask(qb, zero, _CMP_NEQ_UQ) &
                                _mm512_cmp_pd_mask(_mm512_add_pd(r0, _mm512_mul_pd(t1, dr)), zero, _CMP_GE_OQ);
            t1 = _mm512_mask_blend_pd(ok, nan, t1);
        }
        const __m512d disc = _mm512_sub_pd(_mm512_mul_pd(qb, qb), _mm512_mul_pd(qa, qc));
        const __m512d s = _mm512_mul_pd(_mm512_sqrt_pd(_mm512_max_pd(disc, zero)), sgn);
        const __m512d hi = _mm512_mul_pd(_mm512_add_pd(qb, s), inv), lo = _mm512_mul_pd(_mm512_sub_pd(qb, s), inv);
        const __mmask8 hiOK = _mm512_cmp_pd_mask(_mm512_add_pd(r0, _mm512_mul_pd(hi, dr)), zero, _CMP_GE_OQ);
        const __mmask8 loOK = _mm512_cmp_pd_mask(_mm512_add_pd(r0, _mm512_mul_pd(lo, dr)), zero, _CMP_GE_OQ);
        __m512d t2 = _mm512_mask_blend_pd(hiOK, _mm512_mask_blend_pd(loOK, nan, lo), hi);
        t2 = _mm512_mask_blend_pd(_mm512_cmp_pd_mask(disc, zero, _CMP_GE_OQ), nan, t2);
        store8(table, radial_entries8(_mm512_mask_blend_pd(linear, t2, t1)), out, i, count);
    }
}
#else
void strata_radial_pad_span_avx2(const uint32_t *table, const double *g, long count, uint32_t *out) {
    (void)table; (void)g; (void)count; (void)out;
}
void strata_radial_pad_span_avx512(const uint32_t *table, const double *g, long count, uint32_t *out) {
    (void)table; (void)g; (void)count; (void)out;
}
#endif

// A conic gradient's span, eight pixels a step: `GradientShader.conicTurn`'s
// operations in their order, in single precision (contraction off, above),
// so the same turn and the same table entry as the Swift loop.
#if defined(__x86_64__)
__attribute__((target("avx2")))
void strata_conic_span_avx2(const uint32_t *table, const float *g, long count, uint32_t *out) {
    __m256 index = _mm256_setr_ps(0, 1, 2, 3, 4, 5, 6, 7);
    const __m256 eight = _mm256_set1_ps(8.0f);
    for (long i = 0; i < count; i += 8) {
        store8(table, conic_indices8(g, index), out, i, count);
        index = _mm256_add_ps(index, eight);
    }
}

/// Pixels x ..< x + count of a row's conic paint (`conic_indices8` with
/// the row's constants `g`), their entries at `out`: `paint8`'s entries,
/// eight a step, for processors without AVX-512 (`conic_span512` there).
__attribute__((target("avx2"), noinline))
static void conic_span8(const uint32_t *table, const float *g, long x, long count, uint32_t *out) {
    __m256 index = _mm256_add_ps(_mm256_set1_ps((float)x), _mm256_setr_ps(0, 1, 2, 3, 4, 5, 6, 7));
    for (long i = 0; i < count; i += 8, index = _mm256_add_ps(index, _mm256_set1_ps(8.0f)))
        store8(table, conic_indices8(g, index), out, i, count);
}

/// The same for a radial row's paint (`radial_focal_indices8`; with
/// `g[18]`, the single-precision polynomials' vectors made once).
__attribute__((target("avx2"), noinline))
static void radial_focal_span8(const uint32_t *table, const double *g, long x, long count, uint32_t *out) {
    if (g[18] != 0) {
        const radial8v r = radial8v_make(g);
        __m256 fi = _mm256_add_ps(_mm256_set1_ps((float)x), _mm256_setr_ps(0, 1, 2, 3, 4, 5, 6, 7));
        for (long i = 0; i < count; i += 8, fi = _mm256_add_ps(fi, _mm256_set1_ps(8.0f)))
            store8(table, radial_single8v(&r, fi), out, i, count);
        return;
    }
    __m256d i0 = places4(x);
    for (long i = 0; i < count; i += 8, i0 = _mm256_add_pd(i0, _mm256_set1_pd(8)))
        store8(table, radial_focal_indices8(g, i0, _mm256_add_pd(i0, _mm256_set1_pd(4))), out, i, count);
}

// The same, sixteen pixels a step with AVX-512: each lane's operations are
// the AVX2 kernel's, so the same turns and entries.
__attribute__((target("avx512f,avx512vl,avx512dq")))
void strata_conic_span_avx512(const uint32_t *table, const float *g, long count, uint32_t *out) {
    conic_span512(table, g, 0, count, out);
}

/// A conic gradient's constants for sixteen lanes (g as
/// `strata_conic_span_avx2` takes it), made once before a loop.
typedef struct {
    __m512 dx0, dy0, sx, sy, offset;
} conic16;

__attribute__((target("avx512f,avx512vl,avx512dq"), always_inline))
static inline conic16 conic16_make(const float *g) {
    return (conic16){_mm512_set1_ps(g[0]), _mm512_set1_ps(g[1]), _mm512_set1_ps(g[2]), _mm512_set1_ps(g[3]),
                     _mm512_set1_ps(g[4])};
}

/// Sixteen pixels' conic table indices at places `index` (`conic_indices8`'s
/// operations, sixteen lanes).
__attribute__((target("avx512f,avx512vl,avx512dq"), always_inline))
static inline __m512i conic_indices16(const conic16 *g, __m512 index) {
    const __m512 zero = _mm512_setzero_ps();
    const __m512 quarter = _mm512_set1_ps(0.25f), half = _mm512_set1_ps(0.5f), one = _mm512_set1_ps(1.0f);
    const __m512 dx = _mm512_add_ps(g->dx0, _mm512_mul_ps(index, g->sx));
    const __m512 dy = _mm512_add_ps(g->dy0, _mm512_mul_ps(index, g->sy));
    const __m512 ax = _mm512_abs_ps(dx), ay = _mm512_abs_ps(dy);
    const __m512 mx = _mm512_max_ps(ax, ay), mn = _mm512_min_ps(ax, ay);
    const __m512 r = _mm512_maskz_div_ps(_mm512_cmp_ps_mask(mx, zero, _CMP_GT_OQ), mn, mx);
    const __m512 s = _mm512_mul_ps(r, r);
    __m512 p = _mm512_add_ps(_mm512_mul_ps(_mm512_set1_ps(STRATA_CONIC_K5), s), _mm512_set1_ps(STRATA_CONIC_K4));
    p = _mm512_add_ps(_mm512_mul_ps(p, s), _mm512_set1_ps(STRATA_CONIC_K3));
    p = _mm512_add_ps(_mm512_mul_ps(p, s), _mm512_set1_ps(STRATA_CONIC_K2));
    p = _mm512_add_ps(_mm512_mul_ps(p, s), _mm512_set1_ps(STRATA_CONIC_K1));
    p = _mm512_add_ps(_mm512_mul_ps(p, s), _mm512_set1_ps(STRATA_CONIC_K0));
    p = _mm512_mul_ps(p, r);
    p = _mm512_mask_blend_ps(_mm512_cmp_ps_mask(ay, ax, _CMP_GT_OQ), p, _mm512_sub_ps(quarter, p));
    p = _mm512_mask_blend_ps(_mm512_cmp_ps_mask(dx, zero, _CMP_LT_OQ), p, _mm512_sub_ps(half, p));
    p = _mm512_mask_blend_ps(_mm512_cmp_ps_mask(dy, zero, _CMP_LT_OQ), p, _mm512_sub_ps(one, p));
    __m512 t = _mm512_sub_ps(p, g->offset);
    t = _mm512_sub_ps(t, _mm512_floor_ps(t));
    const __mmask16 valid = _mm512_cmp_ps_mask(t, t, _CMP_ORD_Q) & _mm512_cmp_ps_mask(dx, dy, _CMP_ORD_Q);
    const __m512 e = _mm512_mask_blend_ps(valid, _mm512_set1_ps(256.0f), _mm512_add_ps(_mm512_mul_ps(t, _mm512_set1_ps(255.0f)), half));
    return _mm512_cvttps_epi32(e);
}

// Pixels x ... x + count − 1 of the span that g describes, to out[0 ..< count].
__attribute__((target("avx512f,avx512vl,avx512dq,avx512bw")))
static void conic_span512(const uint32_t *table, const float *g, long x, long count, uint32_t *out) {
    const conic16 c = conic16_make(g);
    const __m512 sixteen = _mm512_set1_ps(16.0f);
    __m512 index = _mm512_add_ps(_mm512_set1_ps((float)x), _mm512_setr_ps(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));
    int skip = 0;
    for (long i = 0; i < count; i += 16, index = _mm512_add_ps(index, sixteen)) {
        store16(table, conic_indices16(&c, index), out, i, count, &skip);
    }
}

/// Sixteen sources `sv` blended onto `d` (the lanes in `live`) as row
/// `m` of a rectangle covers them: at its one coverage (`over16`,
/// `paint_run`'s operations), or through its coverage bytes from pixel
/// `i` (each source scaled by its byte and blended,
/// `strata_source_over_mask_avx2`'s operations; sixteen zero bytes
/// skipped), so the same bytes as shading the row first and blending it
/// after.
__attribute__((target("avx512f,avx512bw,avx512vl"), always_inline))
static inline void rect_over16(uint32_t *d, __m512i sv, __mmask16 live, const rect_masks *m, long i, int scaled,
                               __m512i c16) {
    if (m->uniform) {
        over16(d, sv, live, scaled, c16);
        return;
    }
    const __m128i bytes = _mm_maskz_loadu_epi8(live, m->first + i);
    if (_mm_testz_si128(bytes, bytes)) return;
    if ((_mm_cmpeq_epi8_mask(bytes, _mm_set1_epi8((char)0xFF)) & live) == live) {
        over16(d, sv, live, 0, c16);
        return;
    }
    __m512i c = _mm512_cvtepu8_epi32(bytes);
    c = _mm512_or_si512(c, _mm512_slli_epi32(c, 16));
    blend16(d, scale16(sv, c), live);
}

/// One row `d` of a rectangle (`width` pixels, covered as `m` says)
/// shaded sixteen pixels a step by a radial gradient's single-precision
/// polynomials (`rv`) or else a conic gradient (`cg`), the entries picked
/// from the table's vectors `t` and `last` and blended in the same pass:
/// `radial_rect512`'s and `conic_rect512`'s rows.
__attribute__((target("avx512f,avx512bw,avx512vl,avx512dq"), always_inline))
static inline void rect_row16(uint32_t *d, long width, const rect_masks *m, const __m512i *t, __m512i last,
                              const radial16 *rv, const conic16 *cg) {
    const __m512 lanes = _mm512_setr_ps(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    const __m512i c16 = _mm512_set1_epi16((short)m->middle);
    const int scaled = m->middle < 255;
    for (long i = 0; i < width; i += 16) {
        const __mmask16 live = width - i >= 16 ? (__mmask16)0xFFFF : (__mmask16)((1u << (width - i)) - 1);
        const __m512 at = _mm512_add_ps(_mm512_set1_ps((float)i), lanes);
        const __m512i sv = table16_from(t, last, rv ? radial_single16(rv, at) : conic_indices16(cg, at));
        rect_over16(d + i, sv, live, m, i, scaled, c16);
    }
}

/// `radial_rows` for a rectangle's rows (`rect_shades16`): each row whose
/// polynomials fit single precision (g[18] = 1) shaded sixteen pixels a
/// step (`radial_single16`), its entries picked from the table's vectors
/// loaded once for the rectangle (`table16_from`) and blended in the same
/// pass (`rect_over16`); other rows through `band_row`. The same entries
/// as `radial_focal_span512`'s, so the same bytes. (Each row through
/// `band_row`, a 32-pixel square spent most of its time setting rows up:
/// a row's call chain, a buffer of sources written and read back.)
__attribute__((target("avx2,avx512f,avx512vl,avx512bw,avx512dq"), noinline))
static long radial_rect512(const band_rows *out, long rows, const uint32_t *table, const double *k, long x, long y) {
    double g[4][24];
    const radial_band band = radial_band_make(g[0], k, x, out->width);
    if (!band.focal) return -1;
    for (int i = 1; i < 4; i++) __builtin_memcpy(g[i], g[0], sizeof g[0]);
    const long width = out->width;
    __m512i t[16];
    table16_load(table, t);
    const __m512i last = table16_last(table);
    for (long r = 0; r < rows; r++) {
        double *row = g[r & 3];
        if ((r & 3) == 0) radial_rows4(g, &band, y + r);
        if (row[12] == 0) return r;
        const rect_masks *m = out->rect + (r >= out->ends[1] ? 2 : r >= out->ends[0] ? 1 : 0);
        if (m->uniform && m->middle == 0) continue;
        if (row[18] == 0) {
            const strata_row_paint paint = {STRATA_ROW_RADIAL_FOCAL, table, 0, 0, row, NULL};
            band_row(out, r, &paint);
            continue;
        }
        const radial16 rv = radial16_make(row);
        rect_row16(out->pixels + r * out->row_stride, width, m, t, last, &rv, NULL);
    }
    return rows;
}

/// `conic_rows` for a rectangle's rows (`rect_shades16`), sixteen pixels a
/// step (`conic_indices16`), the entries picked from the table's vectors
/// loaded once (`table16_from`) and blended in the same pass
/// (`rect_over16`): the same entries as `conic_span512`'s, so the same
/// bytes, without a row's call chain and buffer.
__attribute__((target("avx2,avx512f,avx512vl,avx512bw,avx512dq"), noinline))
static long conic_rect512(const band_rows *out, long rows, const uint32_t *table, const double *k, long x, long y) {
    // `conic_rows_body`'s constants and row places, the same operations.
    const long width = out->width;
    conic_band g;
    if (!conic_band_make(&g, k, x, width)) return -1;
    __m512i t[16];
    table16_load(table, t);
    const __m512i last = table16_last(table);
    for (long r = 0; r < rows; r++) {
        double d0x, d0y;
        if (!conic_band_row(&g, y + r, &d0x, &d0y)) return r;
        const rect_masks *m = out->rect + (r >= out->ends[1] ? 2 : r >= out->ends[0] ? 1 : 0);
        if (m->uniform && m->middle == 0) continue;
        const float f[5] = {(float)d0x, (float)d0y, (float)g.a, (float)g.b, (float)g.offset};
        const conic16 cg = conic16_make(f);
        rect_row16(out->pixels + r * out->row_stride, width, m, t, last, NULL, &cg);
    }
    return rows;
}

/// A radial gradient's constants for eight lanes (focal point inside the
/// end circle; g as `strata_radial_pad_span_avx2` takes it).
typedef struct {
    __m512d inv, qb0, dqb, d0, d1, d2;
} radial8;

__attribute__((target("avx512f,avx512vl,avx512dq"), always_inline))
static inline radial8 radial8_make(const double *g) {
    return (radial8){_mm512_set1_pd(g[9]),  _mm512_set1_pd(g[13]), _mm512_set1_pd(g[14]),
                     _mm512_set1_pd(g[15]), _mm512_set1_pd(g[16]), _mm512_set1_pd(g[17])};
}

/// Sixteen pixels' radial table indices from place `*index` on:
/// `radial_focal_span512`'s operations, eight lanes at a time.
__attribute__((target("avx512f,avx512vl,avx512dq"), always_inline))
static inline __m512i radial_indices16(const radial8 *g, __m512d *index) {
    const __m512d zero = _mm512_setzero_pd(), eight = _mm512_set1_pd(8);
    __m256i half[2];
    for (int h = 0; h < 2; h++) {
        const __m512d qb = _mm512_add_pd(g->qb0, _mm512_mul_pd(*index, g->dqb));
        const __m512d disc = _mm512_add_pd(g->d0, _mm512_mul_pd(*index, _mm512_add_pd(g->d1, _mm512_mul_pd(*index, g->d2))));
        *index = _mm512_add_pd(*index, eight);
        half[h] = radial_entries8(_mm512_mul_pd(_mm512_sub_pd(qb, _mm512_sqrt_pd(_mm512_max_pd(disc, zero))), g->inv));
    }
    return _mm512_inserti64x4(_mm512_castsi256_si512(half[0]), half[1], 1);
}

/// A radial gradient's places `x ..< x + count` (focal point inside its
/// end circle) blended onto `d` where lookups are gathered: sixteen entries a
/// step, gathered and blended in the same pass, the blend's work done
/// while the square roots take their time. At constant `coverage`
/// (`paint_run`'s operations: `over16`), or through `mask`'s coverage
/// bytes where it is given (`strata_source_over_mask_avx2`'s: each source
/// scaled by its byte, then the destination by what it leaves), so the
/// same bytes as shading them first and blending after. (Conic entries
/// blended so measured slower than shaded first: their division holds
/// the gather up; `shade_places` there.)
__attribute__((target("avx512f,avx512bw,avx512vl,avx512dq"), always_inline))
static inline void radial_run512_body(uint32_t *d, const uint32_t *table, const double *gp, long x, long count,
                                      uint32_t coverage, const uint8_t *mask) {
    const radial8 g = radial8_make(gp);
    const radial16 single = radial16_make(gp);
    const int in_single = gp[18] != 0;
    const __m512i c16 = _mm512_set1_epi16((short)coverage);
    const int scaled = coverage < 255;
    __m512d index = _mm512_add_pd(_mm512_set1_pd((double)x), _mm512_setr_pd(0, 1, 2, 3, 4, 5, 6, 7));
    __m512 fi = _mm512_add_ps(_mm512_set1_ps((float)x), _mm512_setr_ps(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));
    for (long i = 0; i < count; i += 16, fi = _mm512_add_ps(fi, _mm512_set1_ps(16))) {
        const __mmask16 live = count - i >= 16 ? (__mmask16)0xFFFF : (__mmask16)((1u << (count - i)) - 1);
        __m512i c = _mm512_setzero_si512();
        if (mask) {
            const __m128i bytes = _mm_maskz_loadu_epi8(live, mask + i);
            if (_mm_testz_si128(bytes, bytes)) {
                index = _mm512_add_pd(index, _mm512_set1_pd(16));
                continue;
            }
            c = _mm512_cvtepu8_epi32(bytes);
            c = _mm512_or_si512(c, _mm512_slli_epi32(c, 16));
        }
        // (`radial_indices16` moves `index` on; `fi` moves with the loop.)
        const __m512i at = in_single ? radial_single16(&single, fi) : radial_indices16(&g, &index);
        const __m512i sv = _mm512_mask_i32gather_epi32(_mm512_setzero_si512(), live, at, table, 4);
        if (!mask) {
            over16(d + i, sv, live, scaled, c16);
            continue;
        }
        blend16(d + i, scale16(sv, c), live);
    }
}

__attribute__((target("avx512f,avx512bw,avx512vl,avx512dq"), noinline))
static void radial_run512(uint32_t *d, const uint32_t *table, const double *g, long x, long count, uint32_t coverage) {
    radial_run512_body(d, table, g, x, count, coverage, NULL);
}

__attribute__((target("avx512f,avx512bw,avx512vl,avx512dq"), noinline))
static void radial_mask_run512(uint32_t *d, const uint32_t *table, const double *g, long x, long count,
                               const uint8_t *mask) {
    radial_run512_body(d, table, g, x, count, 0, mask);
}

/// `lerp8` sixteen pixels wide: each channel a·(256 − w)/256 + b·w/256,
/// rounded as `lerp8` rounds it.
__attribute__((target("avx512f,avx512bw,avx512vl"), always_inline))
static inline __m512i lerp16(__m512i a, __m512i b, __m512i w, __m512i iw) {
    const __m512i low = _mm512_set1_epi32(0x00FF00FF), bias = _mm512_set1_epi16(0x80);
    const __m512i rb = _mm512_srli_epi16(
        _mm512_add_epi16(_mm512_add_epi16(_mm512_mullo_epi16(_mm512_and_si512(a, low), iw),
                                          _mm512_mullo_epi16(_mm512_and_si512(b, low), w)),
                         bias),
        8);
    const __m512i ag = _mm512_add_epi16(_mm512_add_epi16(_mm512_mullo_epi16(_mm512_and_si512(_mm512_srli_epi32(a, 8), low), iw),
                                                         _mm512_mullo_epi16(_mm512_and_si512(_mm512_srli_epi32(b, 8), low), w)),
                                        bias);
    return _mm512_or_si512(rb, _mm512_andnot_si512(low, ag));
}

/// Image row `s`'s pixels at places `at` ... `at` + 15 (the row
/// `image_width` long): repeated (`at` within 0 ..< image_width, the row 16
/// or longer, so a wrap at most), from one load or two; padded, loaded
/// where they are inside, the edge pixels in the lanes outside (whose
/// addresses are never read: a masked load does not fault there).
__attribute__((target("avx512f,avx512bw,avx512vl"), always_inline))
static inline __m512i image_row16(const uint32_t *s, long at, long image_width, int repeat) {
    const __m512i lanes = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    if (repeat) {
        const __mmask16 before = _mm512_cmplt_epi32_mask(lanes, _mm512_set1_epi32((int32_t)(image_width - at)));
        const __m512i sv = _mm512_maskz_loadu_epi32(before, s + at);
        return _mm512_mask_loadu_epi32(sv, (__mmask16)~before,
                                       (const void *)((uintptr_t)s + (uintptr_t)((at - image_width) * 4)));
    }
    const __m512i places = _mm512_add_epi32(_mm512_set1_epi32((int32_t)at), lanes);
    const __mmask16 below = _mm512_cmplt_epi32_mask(places, _mm512_setzero_si512());
    const __mmask16 past = _mm512_cmpge_epi32_mask(places, _mm512_set1_epi32((int32_t)image_width));
    __m512i sv = _mm512_maskz_loadu_epi32((__mmask16)~(below | past), (const void *)((uintptr_t)s + (uintptr_t)(at * 4)));
    sv = _mm512_mask_mov_epi32(sv, below, _mm512_set1_epi32((int32_t)s[0]));
    return _mm512_mask_mov_epi32(sv, past, _mm512_set1_epi32((int32_t)s[image_width - 1]));
}

/// Which image row a rectangle's row takes (`ImageShader.unsampledRow`'s
/// operations): the image moved by whole pixels (`shifted`, `dy` rows), or
/// its row coordinate `d·(y + ½) + ty` reduced, repeated or padded.
typedef struct {
    const uint32_t *image;
    long stride, height, dy, y;
    double d, ty;
    int shifted, repeat;
} image_rows;

/// The image row of the rectangle's row r, or NULL where its coordinate
/// is not a number (nothing drawn).
/// The rectangle's row r's image row coordinate d·(y + r + ½) + ty
/// brought near the image (`ImageShader.reduce`): within a period where
/// repeated, or 0 where it is not a number; within 4 rows of the image
/// where padded (Swift's `max(-4, min(h + 4, u))`, NaN taken as h + 4).
static inline int image_row_coordinate(const image_rows *g, long r, double *sv) {
#pragma clang fp contract(off)
    const double u = g->d * ((double)(g->y + r) + 0.5) + g->ty, h = (double)g->height;
    if (g->repeat) {
        *sv = period_remainder(u, h);
        return isfinite(*sv);
    }
    const double v = u < h + 4 ? u : h + 4;
    *sv = v >= -4 ? v : -4;
    return 1;
}

/// Image row i (within a row or so of the image) brought into it, as the
/// spread says.
static inline long image_row_index(const image_rows *g, long i) {
    const long h = g->height;
    return g->repeat ? wrap_repeat(i, h) : (i < 0 ? 0 : (i >= h ? h - 1 : i));
}

static inline const uint32_t *image_row_at(const image_rows *g, long r) {
    if (g->shifted) return g->image + image_row_index(g, g->y + r + g->dy) * g->stride;
    double sv;
    if (!image_row_coordinate(g, r, &sv)) return NULL;
    // (`wrapNear` of ⌊sv⌋: within a row of the image, where `wrap_repeat`
    // takes it back without a division.)
    return g->image + image_row_index(g, (long)(sv + 8) - 8) * g->stride;
}

/// The rectangle's row r's two image rows and the weight between them
/// (`shadeTranslated`'s), or 0 where its coordinate is not a number
/// (nothing drawn).
static inline int bilinear_rows_at(const image_rows *g, long r, const uint32_t **s0, const uint32_t **s1, uint32_t *wy) {
#pragma clang fp contract(off)
    double sv;
    if (!image_row_coordinate(g, r, &sv)) return 0;
    const double fv = sv - 0.5;
    const long y0 = (long)(fv + 8) - 8;
    *wy = bilinear_weight(fv - (double)y0);
    *s0 = g->image + image_row_index(g, y0) * g->stride;
    *s1 = g->image + image_row_index(g, y0 + 1) * g->stride;
    return 1;
}

/// A rectangle's rows of an image's own pixels (`out->rect`, at most 256
/// pixels wide, `rows` of them): row r's sources are the pixels of its
/// image row (`image_row_at`) from column `column` on, `image_width` of
/// them in a row, repeated (`column` within 0 ..< image_width) or padded
/// (places outside held at the edge pixel),
/// blended through the row's group's coverage (`rect_over16`), sixteen
/// pixels a step: a narrow repeated image's pixels picked from its row in
/// a register, a wider one's from one load or two (the one wrap a step
/// can hold), a padded one's loaded where they are inside, the edge
/// pixels put in the lanes outside. The same bytes as copying each row's
/// sources out and blending them through its coverage.
__attribute__((target("avx512f,avx512bw,avx512vl"), noinline))
static void image_rect512(const band_rows *out, long rows, const image_rows *g, long image_width, long column) {
    const int repeat = g->repeat;
    const long width = out->width;
    const int narrow = repeat && image_width < 16;
    const narrow16 n = narrow16_make(image_width, column, narrow);
    const __m512i w = n.w, step = n.step, first = n.first;
    const __mmask16 held = n.held;
    for (long r = 0; r < rows; r++) {
        const rect_masks *m = out->rect + (r >= out->ends[1] ? 2 : r >= out->ends[0] ? 1 : 0);
        if (m->uniform && m->middle == 0) continue;
        const uint32_t *s = image_row_at(g, r);
        if (!s) continue;
        uint32_t *d = out->pixels + r * out->row_stride;
        const __m512i c16 = _mm512_set1_epi16((short)m->middle);
        const int scaled = m->middle < 255;
        if (narrow) {
            const __m512i row = _mm512_maskz_loadu_epi32(held, s);
            __m512i at = first;
            for (long i = 0; i < width; i += 16) {
                const __mmask16 live = width - i >= 16 ? (__mmask16)0xFFFF : (__mmask16)((1u << (width - i)) - 1);
                const __m512i sv = _mm512_permutexvar_epi32(at, row);
                at = _mm512_add_epi32(at, step);
                at = _mm512_mask_sub_epi32(at, _mm512_cmpge_epi32_mask(at, w), at, w);
                rect_over16(d + i, sv, live, m, i, scaled, c16);
            }
        } else {
            long at = column;
            for (long i = 0; i < width; i += 16) {
                const __mmask16 live = width - i >= 16 ? (__mmask16)0xFFFF : (__mmask16)((1u << (width - i)) - 1);
                const __m512i sv = image_row16(s, at, image_width, repeat);
                at += 16;
                if (repeat && at >= image_width) at -= image_width;
                rect_over16(d + i, sv, live, m, i, scaled, c16);
            }
        }
    }
}

/// A rectangle's rows of an image moved without scaling and sampled
/// bilinearly (`ImageShader.shadeTranslated`'s mixes: each column between
/// the row's two image rows at its weight, then each pixel between its
/// column and the next at the column weight `wx`), repeated or padded as
/// `image_rows` says (its `shifted` unused), from column `column` (within
/// the image where repeated), blended through each row's group's coverage
/// (`rect_over16`). A narrow repeated image (under 16 pixels) picks its
/// columns from the two rows held in registers.
__attribute__((target("avx512f,avx512bw,avx512vl"), noinline))
static void bilinear_rect512(const band_rows *out, long rows, const image_rows *g, long image_width, long column,
                             uint32_t wx) {
#pragma clang fp contract(off)
    const long width = out->width;
    const int repeat = g->repeat, narrow = repeat && image_width < 16;
    const __m512i wxv = _mm512_set1_epi16((short)wx), iwxv = _mm512_set1_epi16((short)(256 - wx));
    const narrow16 n = narrow16_make(image_width, column, narrow);
    const __m512i w = n.w, step = n.step, first = n.first, one = _mm512_set1_epi32(1);
    const __mmask16 held = n.held;
    for (long r = 0; r < rows; r++) {
        const rect_masks *m = out->rect + (r >= out->ends[1] ? 2 : r >= out->ends[0] ? 1 : 0);
        if (m->uniform && m->middle == 0) continue;
        const uint32_t *s0, *s1;
        uint32_t wy;
        if (!bilinear_rows_at(g, r, &s0, &s1, &wy)) continue;
        const __m512i wyv = _mm512_set1_epi16((short)wy), iwyv = _mm512_set1_epi16((short)(256 - wy));
        uint32_t *d = out->pixels + r * out->row_stride;
        const __m512i c16 = _mm512_set1_epi16((short)m->middle);
        const int scaled = m->middle < 255;
        if (narrow) {
            const __m512i row0 = _mm512_maskz_loadu_epi32(held, s0), row1 = _mm512_maskz_loadu_epi32(held, s1);
            __m512i at = first;
            for (long i = 0; i < width; i += 16) {
                const __mmask16 live = width - i >= 16 ? (__mmask16)0xFFFF : (__mmask16)((1u << (width - i)) - 1);
                __m512i next = _mm512_add_epi32(at, one);
                next = _mm512_mask_sub_epi32(next, _mm512_cmpge_epi32_mask(next, w), next, w);
                const __m512i a = lerp16(_mm512_permutexvar_epi32(at, row0), _mm512_permutexvar_epi32(at, row1), wyv, iwyv);
                const __m512i b =
                    lerp16(_mm512_permutexvar_epi32(next, row0), _mm512_permutexvar_epi32(next, row1), wyv, iwyv);
                at = _mm512_add_epi32(at, step);
                at = _mm512_mask_sub_epi32(at, _mm512_cmpge_epi32_mask(at, w), at, w);
                rect_over16(d + i, lerp16(a, b, wxv, iwxv), live, m, i, scaled, c16);
            }
            continue;
        }
        // Each step's columns mixed between the rows once: the next
        // column of each lane is the next lane's, the last lane's the
        // first of the next step's.
        long at = column;
        __m512i a = lerp16(image_row16(s0, at, image_width, repeat), image_row16(s1, at, image_width, repeat), wyv, iwyv);
        for (long i = 0; i < width; i += 16) {
            const __mmask16 live = width - i >= 16 ? (__mmask16)0xFFFF : (__mmask16)((1u << (width - i)) - 1);
            at += 16;
            if (repeat && at >= image_width) at -= image_width;
            const __m512i after =
                lerp16(image_row16(s0, at, image_width, repeat), image_row16(s1, at, image_width, repeat), wyv, iwyv);
            rect_over16(d + i, lerp16(a, _mm512_alignr_epi32(after, a, 1), wxv, iwxv), live, m, i, scaled, c16);
            a = after;
        }
    }
}

/// `ImageShader.lerp`: a·(256 − w) + b·w over 256, each channel rounded.
static inline uint32_t lerp_pixel(uint32_t a, uint32_t b, uint32_t w) {
    const uint32_t low = 0x00FF00FF, iw = 256 - w;
    const uint32_t rb = (((a & low) * iw + (b & low) * w + 0x00800080u) >> 8) & low;
    const uint32_t ag = (((a >> 8) & low) * iw + ((b >> 8) & low) * w + 0x00800080u) & ~low;
    return rb | ag;
}

/// Row `r` of a rectangle's rows `out` (at most 256 pixels wide), its
/// sources `src`, blended source over through its group's coverage `m`:
/// at its one coverage (`source_over_row`) or through its bytes
/// (`strata_source_over_mask_avx2`), as a row's sources are blended after
/// they are shaded (`image_rect8`'s and `bilinear_rect8`'s rows).
__attribute__((target("avx2"), always_inline))
static inline void rect_row_over(const band_rows *out, long r, const rect_masks *m, const uint32_t *src) {
    uint32_t *d = out->pixels + r * out->row_stride;
    if (m->uniform) {
        source_over_row(d, src, out->width, m->middle);
    } else {
        strata_source_over_mask_avx2(d, src, out->width, m->first);
    }
}

/// `bilinear_rect512` with AVX2: each row's sources made as
/// `ImageShader.shadeTranslated` makes them (the columns from `column` on
/// mixed between the row's two image rows by `strata_lerp_rows_avx2`, a
/// run on the image at a time, a padded image's edge column mixed once;
/// then each with its right neighbour, `strata_lerp_neighbours_avx2`),
/// blended through the row's group's coverage by the row kernels: the
/// same bytes as shading each row and blending it, without a call into
/// Swift and its set-up for each row.
__attribute__((target("avx2"), noinline))
static void bilinear_rect8(const band_rows *out, long rows, const image_rows *g, long image_width, long column,
                           uint32_t wx) {
#pragma clang fp contract(off)
    const long width = out->width;
    const int repeat = g->repeat;
    uint32_t sources[256 + 8];
    for (long r = 0; r < rows; r++) {
        const rect_masks *m = out->rect + (r >= out->ends[1] ? 2 : r >= out->ends[0] ? 1 : 0);
        if (m->uniform && m->middle == 0) continue;
        const uint32_t *s0, *s1;
        uint32_t wy;
        if (!bilinear_rows_at(g, r, &s0, &s1, &wy)) continue;
        // Columns column ... column + width mixed between the rows: all
        // but the last in `sources`, the last in `last`.
        uint32_t last = 0;
        long i = 0, c = column;
        while (i <= width) {
            if (repeat && c >= image_width) c = 0;
            long n, source;
            int on_image;
            if (c < 0) {
                n = width + 1 - i < -c ? width + 1 - i : -c, source = 0, on_image = 0;
            } else if (c >= image_width) {
                n = width + 1 - i, source = image_width - 1, on_image = 0;
            } else {
                n = width + 1 - i < image_width - c ? width + 1 - i : image_width - c, source = c, on_image = 1;
            }
            const long into = n < width - i ? n : width - i;
            if (on_image) {
                if (into > 0) strata_lerp_rows_avx2(s0 + source, s1 + source, into, wy, sources + i);
                if (i + n > width) last = lerp_pixel(s0[source + width - i], s1[source + width - i], wy);
            } else {
                const uint32_t edge = lerp_pixel(s0[source], s1[source], wy);
                for (long k = 0; k < into; k++) sources[i + k] = edge;
                if (i + n > width) last = edge;
            }
            i += n;
            c += n;
        }
        strata_lerp_neighbours_avx2(sources, width, last, wx);
        rect_row_over(out, r, m, sources);
    }
}

/// `strata_rect_bilinear_rows`' checks and set-up (`shadeTranslated`'s
/// first column and the weight of the next), then its rows sixteen pixels
/// a step (`wide`, AVX-512: `bilinear_rect512`) or eight (`bilinear_rect8`).
static long rect_bilinear_rows(uint32_t *pixels, long row_stride, long width, const long rows[3], const uint8_t cover[9],
                               const uint32_t *image, long image_stride, long image_width, long image_height, double d,
                               double tx, double ty, long x, long y, int repeat, int wide) {
#pragma clang fp contract(off)
    if (width > 256 || image_width < 1 || image_width > (1L << 24) || image_height < 1) return -1;
    const double u0 = (double)x + 0.5 + tx;
    if (!(fabs(u0) < 0x1p31)) return -1;
    const double f = u0 - 0.5, whole = floor(f);
    const uint32_t wx = bilinear_weight(f - whole);
    long column = (long)whole;
    // (Padded, a column further than the rows reach from the image gives
    // the edge's pixels as any such column does.)
    if (repeat) {
        column = wrap_repeat(column, image_width);
    } else {
        column = column < -(1L << 24) ? -(1L << 24) : (column > (1L << 24) ? (1L << 24) : column);
    }
    band_rows out;
    rect_masks masks[3];
    const long total = rect_rows_make(&out, masks, pixels, row_stride, width, rows, cover);
    if (total < 0) return -1;
    const image_rows g = {image, image_stride, image_height, 0, y, d, ty, 0, repeat != 0};
    if (wide) {
        bilinear_rect512(&out, total, &g, image_width, column, wx);
    } else {
        bilinear_rect8(&out, total, &g, image_width, column, wx);
    }
    return total;
}

long strata_rect_bilinear_rows(uint32_t *pixels, long row_stride, long width, const long rows[3], const uint8_t cover[9],
                               const uint32_t *image, long image_stride, long image_width, long image_height, double d,
                               double tx, double ty, long x, long y, int repeat) {
    const int level = strata_kernel_level();
    if (level < 1) return -1;
    return rect_bilinear_rows(pixels, row_stride, width, rows, cover, image, image_stride, image_width, image_height, d,
                              tx, ty, x, y, repeat, level >= 2);
}

long strata_rect_bilinear_rows_avx512(uint32_t *pixels, long row_stride, long width, const long rows[3],
                                      const uint8_t cover[9], const uint32_t *image, long image_stride, long image_width,
                                      long image_height, double d, double tx, double ty, long x, long y, int repeat) {
    if (strata_kernel_level() < 2) return -1;
    return rect_bilinear_rows(pixels, row_stride, width, rows, cover, image, image_stride, image_width, image_height, d,
                              tx, ty, x, y, repeat, 1);
}

/// `image_rect512` with AVX2: each row's sources the image row's own
/// pixels where the row lies within it, else copied out eight at a time
/// (a load where the eight lie within the row, one by one where they wrap
/// or pass its edge), then blended through the row's group's coverage by
/// the kernels that blend a row of sources (`source_over_row`,
/// `strata_source_over_mask_avx2`), so the same bytes.
__attribute__((target("avx2"), noinline))
static void image_rect8(const band_rows *out, long rows, const image_rows *g, long image_width, long column) {
    const int repeat = g->repeat;
    const long width = out->width;
    const int inside = column >= 0 && column + width <= image_width;
    uint32_t sources[256 + 8];
    for (long r = 0; r < rows; r++) {
        const rect_masks *m = out->rect + (r >= out->ends[1] ? 2 : r >= out->ends[0] ? 1 : 0);
        if (m->uniform && m->middle == 0) continue;
        const uint32_t *s = image_row_at(g, r);
        if (!s) continue;
        const uint32_t *src = s + column;
        if (!inside) {
            long at = column;
            for (long i = 0; i < width; i += 8) {
                if (at >= 0 && at + 8 <= image_width) {
                    _mm256_storeu_si256((__m256i *)(sources + i), _mm256_loadu_si256((const __m256i *)(s + at)));
                    at += 8;
                } else if (repeat) {
                    for (int k = 0; k < 8; k++) {
                        sources[i + k] = s[at];
                        at = at + 1 == image_width ? 0 : at + 1;
                    }
                    continue;
                } else if (image_width >= 8) {
                    // Padded, the block reaches past an end: its columns
                    // clamped to the image all lie within the eight at the
                    // end it passes, which are loaded once and picked.
                    const long base = at < 0 ? 0 : image_width - 8;
                    const __m256i places = _mm256_add_epi32(_mm256_set1_epi32((int)at), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
                    const __m256i clamped =
                        _mm256_min_epi32(_mm256_max_epi32(places, _mm256_setzero_si256()), _mm256_set1_epi32((int)(image_width - 1)));
                    const __m256i block = _mm256_loadu_si256((const __m256i *)(s + base));
                    _mm256_storeu_si256((__m256i *)(sources + i),
                                        _mm256_permutevar8x32_epi32(block, _mm256_sub_epi32(clamped, _mm256_set1_epi32((int)base))));
                    at += 8;
                    continue;
                } else {
                    for (int k = 0; k < 8; k++, at++) sources[i + k] = s[at < 0 ? 0 : (at >= image_width ? image_width - 1 : at)];
                    continue;
                }
                if (repeat && at >= image_width) at -= image_width;
            }
            src = sources;
        }
        rect_row_over(out, r, m, src);
    }
}

/// `strata_rect_image_rows`' checks and set-up, then its rows sixteen
/// pixels a step (`wide`, AVX-512: `image_rect512`) or eight
/// (`image_rect8`).
static long rect_image_rows(uint32_t *pixels, long row_stride, long width, const long rows[3], const uint8_t cover[9],
                            const uint32_t *image, long image_stride, long image_width, long image_height, int shifted,
                            long dy, double d, double ty, long y, long column, int repeat, int wide) {
    if (width > 256 || image_width < 1 || image_width > (1L << 24) || image_height < 1) return -1;
    if (repeat ? (column < 0 || column >= image_width) : (column < -(1L << 24) || column > (1L << 24))) return -1;
    band_rows out;
    rect_masks masks[3];
    const long total = rect_rows_make(&out, masks, pixels, row_stride, width, rows, cover);
    if (total < 0) return -1;
    const image_rows g = {image, image_stride, image_height, dy, y, d, ty, shifted != 0, repeat != 0};
    if (wide) {
        image_rect512(&out, total, &g, image_width, column);
    } else {
        image_rect8(&out, total, &g, image_width, column);
    }
    return total;
}

long strata_rect_image_rows(uint32_t *pixels, long row_stride, long width, const long rows[3], const uint8_t cover[9],
                            const uint32_t *image, long image_stride, long image_width, long image_height, int shifted,
                            long dy, double d, double ty, long y, long column, int repeat) {
    const int level = strata_kernel_level();
    if (level < 1) return -1;
    return rect_image_rows(pixels, row_stride, width, rows, cover, image, image_stride, image_width, image_height,
                           shifted, dy, d, ty, y, column, repeat, level >= 2);
}

long strata_rect_image_rows_avx512(uint32_t *pixels, long row_stride, long width, const long rows[3], const uint8_t cover[9],
                                   const uint32_t *image, long image_stride, long image_width, long image_height,
                                   int shifted, long dy, double d, double ty, long y, long column, int repeat) {
    if (strata_kernel_level() < 2) return -1;
    return rect_image_rows(pixels, row_stride, width, rows, cover, image, image_stride, image_width, image_height,
                           shifted, dy, d, ty, y, column, repeat, 1);
}

#else
void strata_conic_span_avx2(const uint32_t *table, const float *g, long count, uint32_t *out) {
    (void)table; (void)g; (void)count; (void)out;
}
void strata_conic_span_avx512(const uint32_t *table, const float *g, long count, uint32_t *out) {
    (void)table; (void)g; (void)count; (void)out;
}
long strata_rect_bilinear_rows_avx512(uint32_t *pixels, long row_stride, long width, const long rows[3],
                                      const uint8_t cover[9], const uint32_t *image, long image_stride, long image_width,
                                      long image_height, double d, double tx, double ty, long x, long y, int repeat) {
    (void)pixels; (void)row_stride; (void)width; (void)rows; (void)cover; (void)image; (void)image_stride;
    (void)image_width; (void)image_height; (void)d; (void)tx; (void)ty; (void)x; (void)y; (void)repeat;
    return -1;
}
long strata_rect_bilinear_rows(uint32_t *pixels, long row_stride, long width, const long rows[3], const uint8_t cover[9],
                               const uint32_t *image, long image_stride, long image_width, long image_height, double d,
                               double tx, double ty, long x, long y, int repeat) {
    return strata_rect_bilinear_rows_avx512(pixels, row_stride, width, rows, cover, image, image_stride, image_width,
                                            image_height, d, tx, ty, x, y, repeat);
}
long strata_rect_image_rows_avx512(uint32_t *pixels, long row_stride, long width, const long rows[3], const uint8_t cover[9],
                                   const uint32_t *image, long image_stride, long image_width, long image_height,
                                   int shifted, long dy, double d, double ty, long y, long column, int repeat) {
    (void)pixels; (void)row_stride; (void)width; (void)rows; (void)cover; (void)image; (void)image_stride;
    (void)image_width; (void)image_height; (void)shifted; (void)dy; (void)d; (void)ty; (void)y; (void)column;
    (void)repeat;
    return -1;
}
long strata_rect_image_rows(uint32_t *pixels, long row_stride, long width, const long rows[3], const uint8_t cover[9],
                            const uint32_t *image, long image_stride, long image_width, long image_height, int shifted,
                            long dy, double d, double ty, long y, long column, int repeat) {
    return strata_rect_image_rows_avx512(pixels, row_stride, width, rows, cover, image, image_stride, image_width,
                                         image_height, shifted, dy, d, ty, y, column, repeat);
}
#endif
