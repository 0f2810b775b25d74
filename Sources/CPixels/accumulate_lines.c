// The area rasterizer's lines, many at a time (see CPixels.h and
// AreaRasterizer.swift). A small shape's edges are short: most lie within
// one pixel row or cross into the next, and most of those within one or two
// cells. Added one call at a time (`strata_accumulate_area`), each such line
// paid for a call and for the branches between its cases (one row or more,
// one cell or two), which go either way at random for the edges of a curve
// or a small polygon. Here sixteen lines are worked out at once in the
// lanes of vectors (AVX-512): the rows each reaches, the one or two pieces
// it leaves in those rows, and each piece's cells and values, all cases
// worked out and the right one chosen in each lane; then the cells are
// added lane by lane, in the lines' order, without a branch between one cell
// and two. A line that crosses three rows or more is cut into its rows'
// pieces (as `strata_accumulate_area` cuts it, x at each row line worked out
// from the line's start), which wait in a list with the pieces of the lines
// around it and are worked out sixteen at a time the same way: a small
// polygon's edges cross a few rows each, and one call each cost them a
// branch between one cell and two in every row (a triangle of 8 pixels 1.2
// times faster, Benchmarks/RESULTS.md). A line over 256 rows is added by
// `strata_accumulate_area` in its turn, after the pieces waiting, and a
// piece across more than three pixels by `add_wide_piece`. (Pieces across
// three pixels, the sides of shapes leaning between one and two pixels a
// row, are worked out in the lanes too: taken apart, they and the narrower
// ones around them went one way or the other at random, StrokeRotatedRect
// 1.05 times faster in the lanes, Benchmarks/RESULTS.md.) A line that
// does not go down (y0 = y1 after the conversion to Float) adds nothing.
// Only the pieces in a window of rows are added (`strata_accumulate_lines_rows`:
// a thread's band of a frame), each worked out as for the whole line.
// The operations, their order and the order in which the cells are added are
// `strata_accumulate_area`'s, so the cells hold the same values (tests hold
// the two to each other bit for bit).
#include "CPixels.h"

#if defined(__x86_64__)
#include <immintrin.h>

/// One row's piece of sixteen lines (lanes): where its cells start, what
/// it adds to them (v2 and v3 are 0 for a piece within one pixel, v3 for
/// one across two), whether it crosses two pixels or three, and whether it
/// crosses more (left to `add_wide_piece`).
typedef struct {
    __m512i at;
    __m512 v0, v1, v2, v3;
    __mmask16 two, three, wide;
} piece16;

/// `strata_add_edge_area`'s values for the pieces from `xa` to `xb`
/// descending `d`, in its operations.
__attribute__((target("avx2,avx512f,avx512vl,avx512bw,avx512dq"), always_inline))
static inline piece16 piece_cells16(__m512 xa, __m512 xb, __m512 d) {
#pragma clang fp contract(off)
    const __m512 zero = _mm512_setzero_ps(), half = _mm512_set1_ps(0.5f);
    // Not at least 0 (NaN included): 0.
    xa = _mm512_maskz_mov_ps(_mm512_cmp_ps_mask(xa, zero, _CMP_GE_OQ), xa);
    xb = _mm512_maskz_mov_ps(_mm512_cmp_ps_mask(xb, zero, _CMP_GE_OQ), xb);
    // (`xb < xa ? xb : xa` and `xb >= xa ? xb : xa`: with neither NaN, the
    // least and greatest.)
    const __m512 xl = _mm512_min_ps(xb, xa), xr = _mm512_max_ps(xb, xa);
    const __m512i il = _mm512_cvttps_epi32(xl), ir = _mm512_cvttps_epi32(xr);
    const __m512 width = _mm512_sub_ps(xr, xl);
    const __mmask16 one =
        _mm512_cmpeq_epi32_mask(il, ir) | _mm512_cmp_ps_mask(width, _mm512_set1_ps(1.0f / 128), _CMP_LT_OQ);
    const __m512i il1 = _mm512_add_epi32(il, _mm512_set1_epi32(1));
    const __mmask16 two = ~one & _mm512_cmpeq_epi32_mask(ir, il1);
    const __mmask16 three = ~one & _mm512_cmpeq_epi32_mask(ir, _mm512_add_epi32(il, _mm512_set1_epi32(2)));
    // One cell: by the mean x.
    const __m512 xm = _mm512_mul_ps(_mm512_add_ps(xa, xb), half);
    const __m512i i = _mm512_cvttps_epi32(xm);
    const __m512 f = _mm512_sub_ps(xm, _mm512_cvtepi32_ps(i));
    const __m512 a1 = _mm512_sub_ps(d, _mm512_mul_ps(d, f)), b1 = _mm512_mul_ps(d, f);
    // Two cells.
    const __m512 s = _mm512_div_ps(d, width);
    const __m512 fl = _mm512_sub_ps(_mm512_cvtepi32_ps(il1), xl);
    const __m512 c0 = _mm512_mul_ps(_mm512_mul_ps(_mm512_mul_ps(s, fl), fl), half);
    const __m512 fr = _mm512_sub_ps(_mm512_cvtepi32_ps(_mm512_add_epi32(ir, _mm512_set1_epi32(1))), xr);
    const __m512 c_last = _mm512_mul_ps(
        s, _mm512_sub_ps(_mm512_sub_ps(_mm512_add_ps(_mm512_cvtepi32_ps(ir), half), xl),
                         _mm512_mul_ps(_mm512_mul_ps(fr, fr), half)));
    // Three cells: the second's coverage, and the sum before the last
    // (`strata_add_edge_area`'s c1 and c_prev, no cells between).
    const __m512 c1 = _mm512_mul_ps(s, _mm512_sub_ps(_mm512_add_ps(_mm512_cvtepi32_ps(il1), half), xl));
    const __m512 c_prev = _mm512_add_ps(c1, _mm512_mul_ps(s, zero));
    const __m512 last = _mm512_sub_ps(d, c_last);
    piece16 p;
    p.at = _mm512_mask_mov_epi32(il, one, i);
    p.v0 = _mm512_mask_mov_ps(c0, one, a1);
    p.v1 = _mm512_mask_mov_ps(_mm512_mask_mov_ps(_mm512_sub_ps(c_last, c0), three, _mm512_sub_ps(c1, c0)), one, b1);
    p.v2 = _mm512_mask_mov_ps(_mm512_maskz_mov_ps(two, last), three, _mm512_sub_ps(c_last, c_prev));
    p.v3 = _mm512_maskz_mov_ps(three, last);
    p.two = two;
    p.three = three;
    p.wide = (__mmask16) ~(one | two | three);
    return p;
}

/// Adds a piece worked out by `piece_cells16` (not a wide one) to a row:
/// its `cells` cells' values (two for a piece in one pixel, three across
/// two, four across three) in one masked load, add and store, no branch
/// between the cases. (Added a
/// cell at a time, a one-cell piece added its third value, 0, to its first
/// cell again, reading back the store just made: the outlines of curves,
/// whose pieces are mostly these, filled 4–8 % slower,
/// Benchmarks/RESULTS.md.)
__attribute__((target("avx2,avx512f,avx512vl"), always_inline))
static inline void add_piece(float *l, uint64_t *b, long c, float v0, float v1, float v2, float v3, long cells) {
    const __mmask8 lanes = (__mmask8)((1u << cells) - 1);
    const __m128 add = _mm_setr_ps(v0, v1, v2, v3);
    _mm_mask_storeu_ps(l + c, lanes, _mm_add_ps(_mm_maskz_loadu_ps(lanes, l + c), add));
    strata_mark_few(b, c, cells);
}

/// `strata_add_edge_area` for a piece across four cells or more: where it
/// spans at most eight (its ends at most six cells apart), its values in
/// the lanes of one vector, added with one masked load and store; wider,
/// by `strata_add_edge_area`. Each cell gets the value that function adds
/// to it, worked out in its operations, so the same cells. (Cell by cell,
/// the sides of a small polygon that lean more than they fall spent a
/// branch and a loop on each row.)
__attribute__((target("avx2,avx512f,avx512vl"), always_inline))
static inline void add_wide_piece(float *line, uint64_t *bits, float xa, float xb, float d) {
    if (!(xa >= 0)) xa = 0;
    if (!(xb >= 0)) xb = 0;
    const float xl = xb < xa ? xb : xa, xr = xb >= xa ? xb : xa;
    const long il = (long)xl, ir = (long)xr;
    const long n = ir - il;
    if (n < 2 || n > 6 || xr - xl < 1.0f / 128) {
        strata_add_edge_area(line, bits, xa, xb, d);
        return;
    }
    float s, c0, c_last;
    strata_piece_ends(xl, xr, il, ir, d, &s, &c0, &c_last);
    const float c1 = s * ((float)(il + 1) + 0.5f - xl);
    const float c_prev = c1 + s * (float)(ir - il - 2);
    // Cell il: c0; il + 1: c1 − c0; those to ir − 1: s; ir: c_last − c_prev;
    // ir + 1: d − c_last.
    __m256 v = _mm256_set1_ps(s);
    v = _mm256_mask_mov_ps(v, 1, _mm256_set1_ps(c0));
    v = _mm256_mask_mov_ps(v, 2, _mm256_set1_ps(c1 - c0));
    v = _mm256_mask_mov_ps(v, (__mmask8)(1u << n), _mm256_set1_ps(c_last - c_prev));
    v = _mm256_mask_mov_ps(v, (__mmask8)(1u << (n + 1)), _mm256_set1_ps(d - c_last));
    const __mmask8 cells = (__mmask8)((1u << (n + 2)) - 1);
    _mm256_mask_storeu_ps(line + il, cells, _mm256_add_ps(_mm256_maskz_loadu_ps(cells, line + il), v));
    strata_mark_cells(bits, il, ir + 1);
}

/// One lane's piece added to its row (`l`, `b`): a wide one (four cells or
/// more) by `add_wide_piece` from its ends, else as `piece_cells16`
/// worked it out (`add_piece`, `cells` cells).
__attribute__((target("avx2,avx512f,avx512vl"), always_inline))
static inline void add_lane_piece(float *l, uint64_t *b, unsigned wide, float xa, float xb, float d, long c, float v0,
                                  float v1, float v2, float v3, long cells) {
    if (wide) {
        add_wide_piece(l, b, xa, xb, d);
    } else {
        add_piece(l, b, c, v0, v1, v2, v3, cells);
    }
}

/// How many cells each lane's piece adds to (`add_piece`): 2, 3 or 4.
__attribute__((target("avx2,avx512f,avx512vl"), always_inline))
static inline unsigned piece_cells_count(const piece16 *c, long j) {
    return 2 + ((unsigned)c->two >> j & 1) + 2 * ((unsigned)c->three >> j & 1);
}

/// Pieces waiting to be added: each a row, the x where the line enters
/// and leaves it, and how far it descends there (times its direction).
/// Room for `PIECE_ROOM` and one more line's (at most `LINE_PIECES`).
#define LINE_PIECES 256
#define PIECE_ROOM 256
typedef struct {
    int32_t row[PIECE_ROOM + LINE_PIECES];
    float xa[PIECE_ROOM + LINE_PIECES], xb[PIECE_ROOM + LINE_PIECES], d[PIECE_ROOM + LINE_PIECES];
    long count;
} pieces;

__attribute__((always_inline)) static inline void piece_append(pieces *p, long row, float xa, float xb, float d) {
    const long k = p->count;
    p->row[k] = (int32_t)row;
    p->xa[k] = xa;
    p->xb[k] = xb;
    p->d[k] = d;
    p->count = k + 1;
}

/// Adds the waiting pieces in their order, sixteen worked out at a time
/// (`piece_cells16`), those across three cells or more by
/// `strata_add_edge_area`, and empties the list.
__attribute__((target("avx2,avx512f,avx512vl,avx512bw,avx512dq"), noinline))
static void pieces_add(pieces *p, float *cells, uint64_t *bits, long stride, long words) {
#pragma clang fp contract(off)
    float v0[16], v1[16], v2[16], v3[16];
    int32_t at[16];
    const long count = p->count;
    for (long k = 0; k < count; k += 16) {
        const long n = count - k < 16 ? count - k : 16;
        const __mmask16 live = (__mmask16)(n == 16 ? 0xFFFF : (1u << n) - 1);
        // (Lanes past the pieces: from 0 to 0, one cell, never added.)
        const piece16 c = piece_cells16(_mm512_maskz_loadu_ps(live, p->xa + k), _mm512_maskz_loadu_ps(live, p->xb + k),
                                        _mm512_maskz_loadu_ps(live, p->d + k));
        _mm512_storeu_si512(at, c.at);
        _mm512_storeu_ps(v0, c.v0);
        _mm512_storeu_ps(v1, c.v1);
        _mm512_storeu_ps(v2, c.v2);
        _mm512_storeu_ps(v3, c.v3);
        const unsigned wide = (unsigned)c.wide;
        for (long j = 0; j < n; j++) {
            add_lane_piece(cells + (long)p->row[k + j] * stride, bits + (long)p->row[k + j] * words, wide >> j & 1,
                           p->xa[k + j], p->xb[k + j], p->d[k + j], at[j], v0[j], v1[j], v2[j], v3[j],
                           piece_cells_count(&c, j));
        }
    }
    p->count = 0;
}

/// Sixteen lines' pieces where each line lies within one row or two: each
/// line's first row's piece (from `xa1` to `xb1`, descending `d1`; lanes
/// `first`), then its second's (lanes `second`), added in the lines' order.
__attribute__((target("avx2,avx512f,avx512vl,avx512bw,avx512dq"), always_inline))
static inline void pairs_add(float *cells, uint64_t *bits, long stride, long words, long n, unsigned first,
                             unsigned second, const int32_t *row_a, const int32_t *row_b, __m512 xa1, __m512 xb1,
                             __m512 d1, __m512 xa2, __m512 xb2, __m512 d2) {
    float xs_a[16], xe_a[16], ds_a[16], xs_b[16], xe_b[16], ds_b[16];
    float v0a[16], v1a[16], v2a[16], v3a[16], v0b[16], v1b[16], v2b[16], v3b[16];
    int32_t at_a[16], at_b[16];
    const piece16 a = piece_cells16(xa1, xb1, d1);
    const piece16 b = piece_cells16(xa2, xb2, d2);
    _mm512_storeu_si512(at_a, a.at);
    _mm512_storeu_si512(at_b, b.at);
    _mm512_storeu_ps(v0a, a.v0);
    _mm512_storeu_ps(v1a, a.v1);
    _mm512_storeu_ps(v2a, a.v2);
    _mm512_storeu_ps(v3a, a.v3);
    _mm512_storeu_ps(v0b, b.v0);
    _mm512_storeu_ps(v1b, b.v1);
    _mm512_storeu_ps(v2b, b.v2);
    _mm512_storeu_ps(v3b, b.v3);
    const unsigned wide_a = (unsigned)a.wide, wide_b = (unsigned)b.wide;
    if ((wide_a & first) | (wide_b & second)) {
        // (Stored only where some lane needs them.)
        _mm512_storeu_ps(xs_a, xa1);
        _mm512_storeu_ps(xe_a, xb1);
        _mm512_storeu_ps(ds_a, d1);
        _mm512_storeu_ps(xs_b, xa2);
        _mm512_storeu_ps(xe_b, xb2);
        _mm512_storeu_ps(ds_b, d2);
    }
    for (long j = 0; j < n; j++) {
        if (first >> j & 1) {
            add_lane_piece(cells + (long)row_a[j] * stride, bits + (long)row_a[j] * words, wide_a >> j & 1, xs_a[j],
                           xe_a[j], ds_a[j], at_a[j], v0a[j], v1a[j], v2a[j], v3a[j], piece_cells_count(&a, j));
        }
        if (second >> j & 1) {
            add_lane_piece(cells + (long)row_b[j] * stride, bits + (long)row_b[j] * words, wide_b >> j & 1, xs_b[j],
                           xe_b[j], ds_b[j], at_b[j], v0b[j], v1b[j], v2b[j], v3b[j], piece_cells_count(&b, j));
        }
    }
}

__attribute__((target("avx2,avx512f,avx512vl,avx512bw,avx512dq")))
static void accumulate_lines512(float *cells, uint64_t *bits, long stride, long words, long height, long lo, long hi,
                                const float *lx0, const float *ly0, const float *lx1, const float *ly1,
                                const float *ldir, long count) {
#pragma clang fp contract(off)
    float xb_a[16], d_a[16], x_mid[16], d_b[16];
    int32_t row_a[16], row_b[16];
    pieces waiting;
    waiting.count = 0;
    const __m512i one_i = _mm512_set1_epi32(1);
    const __m512i bottom = _mm512_set1_epi32((int32_t)(height - 1));
    // The window's rows, lo ..< hi: pieces in other rows are not added.
    const __m512i lo_v = _mm512_set1_epi32((int32_t)lo), hi_v = _mm512_set1_epi32((int32_t)hi);
    for (long k = 0; k < count; k += 16) {
        const long n = count - k < 16 ? count - k : 16;
        const __mmask16 live = (__mmask16)(n == 16 ? 0xFFFF : (1u << n) - 1);
        // (Lanes past the lines hold a line from (0, 0) to (0, 1): finite,
        // and never added.)
        const __m512 x0 = _mm512_maskz_loadu_ps(live, lx0 + k), y0 = _mm512_maskz_loadu_ps(live, ly0 + k);
        const __m512 x1 = _mm512_maskz_loadu_ps(live, lx1 + k);
        const __m512 y1 = _mm512_mask_loadu_ps(_mm512_set1_ps(1.0f), live, ly1 + k);
        const __m512 dir = _mm512_maskz_loadu_ps(live, ldir + k);
        // The rows: from ⌊y0⌋ to ⌈y1⌉ − 1, held to the band.
        const __m512i first = _mm512_cvttps_epi32(y0);
        const __m512i whole = _mm512_cvttps_epi32(y1);
        __m512i last = _mm512_mask_sub_epi32(whole, _mm512_cmp_ps_mask(_mm512_cvtepi32_ps(whole), y1, _CMP_EQ_OQ),
                                             whole, one_i);
        last = _mm512_min_epi32(last, bottom);
        // (A line with y0 = y1, which two Doubles apart can become as
        // Floats, adds nothing, as one call adds it: in no mask, skipped.
        // At the band's bottom its row would be past the last.)
        const __mmask16 falls = _mm512_cmp_ps_mask(y0, y1, _CMP_LT_OQ);
        const __mmask16 one_row = falls & _mm512_cmpge_epi32_mask(first, last);
        const __mmask16 two_rows = falls & _mm512_cmpeq_epi32_mask(last, _mm512_add_epi32(first, one_i));
        // Where the line crosses the row line below its first row.
        const __m512 dxdy = _mm512_div_ps(_mm512_sub_ps(x1, x0), _mm512_sub_ps(y1, y0));
        const __m512 row_line = _mm512_cvtepi32_ps(_mm512_add_epi32(first, one_i));
        const __m512 x_top = _mm512_add_ps(x0, _mm512_mul_ps(_mm512_sub_ps(row_line, y0), dxdy));
        // The first row's piece: the whole line, or down to the row line.
        const __m512 xb1 = _mm512_mask_mov_ps(x_top, one_row, x1);
        const __m512 d1 = _mm512_mul_ps(_mm512_mask_mov_ps(_mm512_sub_ps(row_line, y0), one_row, _mm512_sub_ps(y1, y0)), dir);
        // The last row's piece, from the row line above it.
        const __m512 d2 = _mm512_mul_ps(_mm512_sub_ps(y1, _mm512_cvtepi32_ps(last)), dir);
        _mm512_storeu_si512(row_a, first);
        _mm512_storeu_si512(row_b, last);
        const unsigned few = (unsigned)(one_row | two_rows), second = (unsigned)two_rows, down = (unsigned)falls;
        // Whether each line's first and last rows are in the window.
        const unsigned shown_a = (unsigned)(_mm512_cmpge_epi32_mask(first, lo_v) & _mm512_cmplt_epi32_mask(first, hi_v));
        const unsigned shown_b = (unsigned)(_mm512_cmpge_epi32_mask(last, lo_v) & _mm512_cmplt_epi32_mask(last, hi_v));
        if (((few | ~down) & 0xFFFFu) == 0xFFFFu) {
            // Every line within two rows (or adding nothing), as the edges
            // of curves mostly are: the pieces added straight from the
            // lanes, after those waiting.
            if (waiting.count > 0) pieces_add(&waiting, cells, bits, stride, words);
            pairs_add(cells, bits, stride, words, n, few & shown_a, second & shown_b, row_a, row_b, x0, xb1, d1, x_top,
                      x1, d2);
            continue;
        }
        _mm512_storeu_ps(xb_a, xb1);
        _mm512_storeu_ps(d_a, d1);
        _mm512_storeu_ps(x_mid, x_top);
        _mm512_storeu_ps(d_b, d2);
        for (long j = 0; j < n; j++) {
            if (few >> j & 1) {
                if (shown_a >> j & 1) piece_append(&waiting, row_a[j], lx0[k + j], xb_a[j], d_a[j]);
                if ((second & shown_b) >> j & 1) piece_append(&waiting, row_b[j], x_mid[j], lx1[k + j], d_b[j]);
            } else if (!(down >> j & 1) || row_b[j] < lo || row_a[j] >= hi) {
                continue;
            } else if (row_b[j] - row_a[j] < LINE_PIECES) {
                // Three rows or more, each row's piece in the window as
                // `strata_accumulate_area` works it out: the first down to
                // the row line, the rows between from line to line (x from
                // the line's start each time), the last from the row line.
                const float xs = lx0[k + j], ys = ly0[k + j], xe = lx1[k + j], ye = ly1[k + j], dj = ldir[k + j];
                const long top = row_a[j], end = row_b[j];
                const float slope = (xe - xs) / (ye - ys);
                float xt = x_mid[j];
                if (top >= lo) piece_append(&waiting, top, xs, xt, d_a[j]);
                long row = top + 1;
                if (row < lo) {
                    row = lo;
                    xt = xs + ((float)row - ys) * slope;
                }
                const long stop = end < hi ? end : hi;
                for (; row < stop; row++) {
                    const float xbot = xs + ((float)(row + 1) - ys) * slope;
                    piece_append(&waiting, row, xt, xbot, dj);
                    xt = xbot;
                }
                if (end < hi) piece_append(&waiting, end, xt, xe, d_b[j]);
            } else {
                // A long line: as one call adds it, after the pieces
                // before it.
                pieces_add(&waiting, cells, bits, stride, words);
                strata_accumulate_area_rows(cells, bits, stride, words, height, lo, hi, lx0[k + j], ly0[k + j],
                                            lx1[k + j], ly1[k + j], ldir[k + j], 1);
            }
            if (waiting.count > PIECE_ROOM) pieces_add(&waiting, cells, bits, stride, words);
        }
    }
    pieces_add(&waiting, cells, bits, stride, words);
}
#endif

void strata_accumulate_lines(float *cells, uint64_t *bits, long stride, long words, long height, const float *x0,
                             const float *y0, const float *x1, const float *y1, const float *dir, long count,
                             int level) {
    strata_accumulate_lines_rows(cells, bits, stride, words, height, 0, height, x0, y0, x1, y1, dir, count, level);
}

void strata_accumulate_lines_rows(float *cells, uint64_t *bits, long stride, long words, long height, long lo, long hi,
                                  const float *x0, const float *y0, const float *x1, const float *y1, const float *dir,
                                  long count, int level) {
#if defined(__x86_64__)
    if (level >= 2) {
        accumulate_lines512(cells, bits, stride, words, height, lo, hi, x0, y0, x1, y1, dir, count);
        return;
    }
#endif
    for (long k = 0; k < count; k++) {
        strata_accumulate_area_rows(cells, bits, stride, words, height, lo, hi, x0[k], y0[k], x1[k], y1[k], dir[k],
                                    level >= 1);
    }
}
