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

/// Adds the waiting pieces (`pieces_add`'s or `pieces_add8`'s way).
typedef void (*pieces_adder)(pieces *p, float *cells, uint64_t *bits, long stride, long words);

/// The lines of a block (`n` of them, their lanes' results in the arrays
/// and bits given, the lines' own ends from `lx0` ... `ldir`) after the
/// lanes: each line within two rows gives its one or two pieces in the
/// window `lo ..< hi`; a line of three rows or more, each row's piece in
/// the window as `strata_accumulate_area` works it out (the first down to
/// the row line, the rows between from line to line, x from the line's
/// start each time, the last from the row line); a longer line is added
/// by one call after the pieces before it. The pieces wait in `waiting`,
/// added by `add` when over `PIECE_ROOM`. (`accumulate_lines512` and
/// `accumulate_lines8` share it: only the lanes differ.)
__attribute__((always_inline)) static inline void lines_to_pieces(
    pieces *waiting, pieces_adder add, float *cells, uint64_t *bits, long stride, long words, long height, long lo,
    long hi, long n, unsigned few, unsigned second, unsigned down, unsigned shown_a, unsigned shown_b,
    const int32_t *row_a, const int32_t *row_b, const float *xb_a, const float *d_a, const float *x_mid,
    const float *d_b, const float *lx0, const float *ly0, const float *lx1, const float *ly1, const float *ldir) {
#pragma clang fp contract(off)
    for (long j = 0; j < n; j++) {
        if (few >> j & 1) {
            if (shown_a >> j & 1) piece_append(waiting, row_a[j], lx0[j], xb_a[j], d_a[j]);
            if ((second & shown_b) >> j & 1) piece_append(waiting, row_b[j], x_mid[j], lx1[j], d_b[j]);
        } else if (!(down >> j & 1) || row_b[j] < lo || row_a[j] >= hi) {
            continue;
        } else if (row_b[j] - row_a[j] < LINE_PIECES) {
            const float xs = lx0[j], ys = ly0[j], xe = lx1[j], ye = ly1[j], dj = ldir[j];
            const long top = row_a[j], end = row_b[j];
            const float slope = (xe - xs) / (ye - ys);
            float xt = x_mid[j];
            if (top >= lo) piece_append(waiting, top, xs, xt, d_a[j]);
            long row = top + 1;
            if (row < lo) {
                row = lo;
                xt = xs + ((float)row - ys) * slope;
            }
            const long stop = end < hi ? end : hi;
            for (; row < stop; row++) {
                const float xbot = xs + ((float)(row + 1) - ys) * slope;
                piece_append(waiting, row, xt, xbot, dj);
                xt = xbot;
            }
            if (end < hi) piece_append(waiting, end, xt, xe, d_b[j]);
        } else {
            add(waiting, cells, bits, stride, words);
            strata_accumulate_area_rows(cells, bits, stride, words, height, lo, hi, lx0[j], ly0[j], lx1[j], ly1[j],
                                        ldir[j], 1);
        }
        if (waiting->count > PIECE_ROOM) add(waiting, cells, bits, stride, words);
    }
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
        lines_to_pieces(&waiting, pieces_add, cells, bits, stride, words, height, lo, hi, n, few, second, down,
                        shown_a, shown_b, row_a, row_b, xb_a, d_a, x_mid, d_b, lx0 + k, ly0 + k, lx1 + k, ly1 + k,
                        ldir + k);
    }
    pieces_add(&waiting, cells, bits, stride, words);
}

// The same with AVX2 alone (processors without AVX-512): eight lines in
// the lanes, the masks in vectors (all ones where true), each lane's
// operations those of the sixteen-lane code above, so the same cells. A
// piece's values are added with one load and store of four (or eight)
// cells, the cells past the piece's own added 0 (a cell never holds −0,
// so it keeps its bits), masked only at a row's end. (One call a line,
// `strata_accumulate_area`, cost the shapes of curves and small polygons
// a call and its branches for each edge; Benchmarks/RESULTS.md.)

/// `piece16` in eight lanes: masks as bits.
typedef struct {
    __m256i at;
    __m256 v0, v1, v2, v3;
    unsigned two, three, wide;
} piece8;

/// `piece_cells16`'s operations in eight lanes.
__attribute__((target("avx2"), always_inline))
static inline piece8 piece_cells8(__m256 xa, __m256 xb, __m256 d) {
#pragma clang fp contract(off)
    const __m256 zero = _mm256_setzero_ps(), half = _mm256_set1_ps(0.5f);
    xa = _mm256_and_ps(xa, _mm256_cmp_ps(xa, zero, _CMP_GE_OQ));
    xb = _mm256_and_ps(xb, _mm256_cmp_ps(xb, zero, _CMP_GE_OQ));
    const __m256 xl = _mm256_min_ps(xb, xa), xr = _mm256_max_ps(xb, xa);
    const __m256i il = _mm256_cvttps_epi32(xl), ir = _mm256_cvttps_epi32(xr);
    const __m256 width = _mm256_sub_ps(xr, xl);
    const __m256 one = _mm256_or_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(il, ir)),
                                    _mm256_cmp_ps(width, _mm256_set1_ps(1.0f / 128), _CMP_LT_OQ));
    const __m256i il1 = _mm256_add_epi32(il, _mm256_set1_epi32(1));
    const __m256 two = _mm256_andnot_ps(one, _mm256_castsi256_ps(_mm256_cmpeq_epi32(ir, il1)));
    const __m256 three =
        _mm256_andnot_ps(one, _mm256_castsi256_ps(_mm256_cmpeq_epi32(ir, _mm256_add_epi32(il, _mm256_set1_epi32(2)))));
    const __m256 xm = _mm256_mul_ps(_mm256_add_ps(xa, xb), half);
    const __m256i i = _mm256_cvttps_epi32(xm);
    const __m256 f = _mm256_sub_ps(xm, _mm256_cvtepi32_ps(i));
    const __m256 a1 = _mm256_sub_ps(d, _mm256_mul_ps(d, f)), b1 = _mm256_mul_ps(d, f);
    const __m256 s = _mm256_div_ps(d, width);
    const __m256 fl = _mm256_sub_ps(_mm256_cvtepi32_ps(il1), xl);
    const __m256 c0 = _mm256_mul_ps(_mm256_mul_ps(_mm256_mul_ps(s, fl), fl), half);
    const __m256 fr = _mm256_sub_ps(_mm256_cvtepi32_ps(_mm256_add_epi32(ir, _mm256_set1_epi32(1))), xr);
    const __m256 c_last = _mm256_mul_ps(s, _mm256_sub_ps(_mm256_sub_ps(_mm256_add_ps(_mm256_cvtepi32_ps(ir), half), xl),
                                                         _mm256_mul_ps(_mm256_mul_ps(fr, fr), half)));
    const __m256 c1 = _mm256_mul_ps(s, _mm256_sub_ps(_mm256_add_ps(_mm256_cvtepi32_ps(il1), half), xl));
    const __m256 c_prev = _mm256_add_ps(c1, _mm256_mul_ps(s, zero));
    const __m256 last = _mm256_sub_ps(d, c_last);
    piece8 p;
    p.at = _mm256_castps_si256(_mm256_blendv_ps(_mm256_castsi256_ps(il), _mm256_castsi256_ps(i), one));
    p.v0 = _mm256_blendv_ps(c0, a1, one);
    p.v1 = _mm256_blendv_ps(_mm256_blendv_ps(_mm256_sub_ps(c_last, c0), _mm256_sub_ps(c1, c0), three), b1, one);
    p.v2 = _mm256_blendv_ps(_mm256_and_ps(two, last), _mm256_sub_ps(c_last, c_prev), three);
    p.v3 = _mm256_and_ps(three, last);
    p.two = (unsigned)_mm256_movemask_ps(two);
    p.three = (unsigned)_mm256_movemask_ps(three);
    p.wide = ~(unsigned)_mm256_movemask_ps(_mm256_or_ps(one, _mm256_or_ps(two, three))) & 0xFFu;
    return p;
}

/// `add_piece` with AVX2: four cells from `c` loaded, added and stored
/// (those past the piece's `cells` adding 0), masked where the four would
/// pass the row's `stride` cells.
__attribute__((target("avx2"), always_inline))
static inline void add_piece8(float *l, uint64_t *b, long stride, long c, float v0, float v1, float v2, float v3,
                              long cells) {
    const __m128 add = _mm_setr_ps(v0, v1, v2, v3);
    if (c + 4 <= stride) {
        _mm_storeu_ps(l + c, _mm_add_ps(_mm_loadu_ps(l + c), add));
    } else {
        const __m128i lanes = _mm_cmpgt_epi32(_mm_set1_epi32((int)cells), _mm_setr_epi32(0, 1, 2, 3));
        _mm_maskstore_ps(l + c, lanes, _mm_add_ps(_mm_maskload_ps(l + c, lanes), add));
    }
    strata_mark_few(b, c, cells);
}

/// `add_wide_piece` with AVX2: the same values in the same lanes, 0 in
/// those past the piece's cells.
__attribute__((target("avx2"), always_inline))
static inline void add_wide_piece8(float *line, uint64_t *bits, long stride, float xa, float xb, float d) {
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
    const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
#define STRATA_LANE(k) _mm256_castsi256_ps(_mm256_cmpeq_epi32(lane, _mm256_set1_epi32((int)(k))))
    __m256 v = _mm256_set1_ps(s);
    v = _mm256_blendv_ps(v, _mm256_set1_ps(c0), STRATA_LANE(0));
    v = _mm256_blendv_ps(v, _mm256_set1_ps(c1 - c0), STRATA_LANE(1));
    v = _mm256_blendv_ps(v, _mm256_set1_ps(c_last - c_prev), STRATA_LANE(n));
    v = _mm256_blendv_ps(v, _mm256_set1_ps(d - c_last), STRATA_LANE(n + 1));
#undef STRATA_LANE
    const __m256i cells = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(n + 2)), lane);
    v = _mm256_and_ps(v, _mm256_castsi256_ps(cells));
    if (il + 8 <= stride) {
        _mm256_storeu_ps(line + il, _mm256_add_ps(_mm256_loadu_ps(line + il), v));
    } else {
        _mm256_maskstore_ps(line + il, cells, _mm256_add_ps(_mm256_maskload_ps(line + il, cells), v));
    }
    strata_mark_cells(bits, il, ir + 1);
}

/// `add_lane_piece` with AVX2.
__attribute__((target("avx2"), always_inline))
static inline void add_lane_piece8(float *l, uint64_t *b, long stride, unsigned wide, float xa, float xb, float d,
                                   long c, float v0, float v1, float v2, float v3, long cells) {
    if (wide) {
        add_wide_piece8(l, b, stride, xa, xb, d);
    } else {
        add_piece8(l, b, stride, c, v0, v1, v2, v3, cells);
    }
}

/// `piece_cells_count` for `piece8`.
__attribute__((always_inline)) static inline unsigned piece8_cells_count(const piece8 *c, long j) {
    return 2 + (c->two >> j & 1) + 2 * (c->three >> j & 1);
}

/// The lanes below `n` (1 ... 8), all ones.
__attribute__((target("avx2"), always_inline))
static inline __m256i live8(long n) {
    return _mm256_cmpgt_epi32(_mm256_set1_epi32((int)n), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
}

/// `pieces_add` eight at a time.
__attribute__((target("avx2"), noinline))
static void pieces_add8(pieces *p, float *cells, uint64_t *bits, long stride, long words) {
#pragma clang fp contract(off)
    float v0[8], v1[8], v2[8], v3[8];
    int32_t at[8];
    const long count = p->count;
    for (long k = 0; k < count; k += 8) {
        const long n = count - k < 8 ? count - k : 8;
        const __m256i live = live8(n);
        const piece8 c = piece_cells8(_mm256_maskload_ps(p->xa + k, live), _mm256_maskload_ps(p->xb + k, live),
                                      _mm256_maskload_ps(p->d + k, live));
        _mm256_storeu_si256((__m256i *)at, c.at);
        _mm256_storeu_ps(v0, c.v0);
        _mm256_storeu_ps(v1, c.v1);
        _mm256_storeu_ps(v2, c.v2);
        _mm256_storeu_ps(v3, c.v3);
        for (long j = 0; j < n; j++) {
            add_lane_piece8(cells + (long)p->row[k + j] * stride, bits + (long)p->row[k + j] * words, stride,
                            c.wide >> j & 1, p->xa[k + j], p->xb[k + j], p->d[k + j], at[j], v0[j], v1[j], v2[j], v3[j],
                            piece8_cells_count(&c, j));
        }
    }
    p->count = 0;
}

/// `pairs_add` for eight lines.
__attribute__((target("avx2"), always_inline))
static inline void pairs_add8(float *cells, uint64_t *bits, long stride, long words, long n, unsigned first,
                              unsigned second, const int32_t *row_a, const int32_t *row_b, __m256 xa1, __m256 xb1,
                              __m256 d1, __m256 xa2, __m256 xb2, __m256 d2) {
    float xs_a[8], xe_a[8], ds_a[8], xs_b[8], xe_b[8], ds_b[8];
    float v0a[8], v1a[8], v2a[8], v3a[8], v0b[8], v1b[8], v2b[8], v3b[8];
    int32_t at_a[8], at_b[8];
    const piece8 a = piece_cells8(xa1, xb1, d1);
    const piece8 b = piece_cells8(xa2, xb2, d2);
    _mm256_storeu_si256((__m256i *)at_a, a.at);
    _mm256_storeu_si256((__m256i *)at_b, b.at);
    _mm256_storeu_ps(v0a, a.v0);
    _mm256_storeu_ps(v1a, a.v1);
    _mm256_storeu_ps(v2a, a.v2);
    _mm256_storeu_ps(v3a, a.v3);
    _mm256_storeu_ps(v0b, b.v0);
    _mm256_storeu_ps(v1b, b.v1);
    _mm256_storeu_ps(v2b, b.v2);
    _mm256_storeu_ps(v3b, b.v3);
    if ((a.wide & first) | (b.wide & second)) {
        _mm256_storeu_ps(xs_a, xa1);
        _mm256_storeu_ps(xe_a, xb1);
        _mm256_storeu_ps(ds_a, d1);
        _mm256_storeu_ps(xs_b, xa2);
        _mm256_storeu_ps(xe_b, xb2);
        _mm256_storeu_ps(ds_b, d2);
    }
    for (long j = 0; j < n; j++) {
        if (first >> j & 1) {
            add_lane_piece8(cells + (long)row_a[j] * stride, bits + (long)row_a[j] * words, stride, a.wide >> j & 1,
                            xs_a[j], xe_a[j], ds_a[j], at_a[j], v0a[j], v1a[j], v2a[j], v3a[j], piece8_cells_count(&a, j));
        }
        if (second >> j & 1) {
            add_lane_piece8(cells + (long)row_b[j] * stride, bits + (long)row_b[j] * words, stride, b.wide >> j & 1,
                            xs_b[j], xe_b[j], ds_b[j], at_b[j], v0b[j], v1b[j], v2b[j], v3b[j], piece8_cells_count(&b, j));
        }
    }
}

/// A vector mask's lanes as bits.
__attribute__((target("avx2"), always_inline))
static inline unsigned bits8(__m256i m) {
    return (unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(m));
}

/// `accumulate_lines512` eight lines at a time (AVX2).
__attribute__((target("avx2")))
static void accumulate_lines8(float *cells, uint64_t *bits, long stride, long words, long height, long lo, long hi,
                              const float *lx0, const float *ly0, const float *lx1, const float *ly1, const float *ldir,
                              long count) {
#pragma clang fp contract(off)
    float xb_a[8], d_a[8], x_mid[8], d_b[8];
    int32_t row_a[8], row_b[8];
    pieces waiting;
    waiting.count = 0;
    const __m256i one_i = _mm256_set1_epi32(1);
    const __m256i bottom = _mm256_set1_epi32((int32_t)(height - 1));
    const __m256i lo_v = _mm256_set1_epi32((int32_t)lo), hi_v = _mm256_set1_epi32((int32_t)hi);
    for (long k = 0; k < count; k += 8) {
        const long n = count - k < 8 ? count - k : 8;
        const __m256i live = live8(n);
        // (Lanes past the lines hold a line from (0, 0) to (0, 1).)
        const __m256 x0 = _mm256_maskload_ps(lx0 + k, live), y0 = _mm256_maskload_ps(ly0 + k, live);
        const __m256 x1 = _mm256_maskload_ps(lx1 + k, live);
        const __m256 y1 =
            _mm256_blendv_ps(_mm256_set1_ps(1.0f), _mm256_maskload_ps(ly1 + k, live), _mm256_castsi256_ps(live));
        const __m256 dir = _mm256_maskload_ps(ldir + k, live);
        const __m256i first = _mm256_cvttps_epi32(y0);
        const __m256i whole = _mm256_cvttps_epi32(y1);
        // (Less 1 where ⌊y1⌋ = y1: the comparison's all ones is −1.)
        __m256i last =
            _mm256_add_epi32(whole, _mm256_castps_si256(_mm256_cmp_ps(_mm256_cvtepi32_ps(whole), y1, _CMP_EQ_OQ)));
        last = _mm256_min_epi32(last, bottom);
        const __m256i falls = _mm256_castps_si256(_mm256_cmp_ps(y0, y1, _CMP_LT_OQ));
        const __m256i one_row = _mm256_andnot_si256(_mm256_cmpgt_epi32(last, first), falls);
        const __m256i two_rows = _mm256_and_si256(falls, _mm256_cmpeq_epi32(last, _mm256_add_epi32(first, one_i)));
        const __m256 dxdy = _mm256_div_ps(_mm256_sub_ps(x1, x0), _mm256_sub_ps(y1, y0));
        const __m256 row_line = _mm256_cvtepi32_ps(_mm256_add_epi32(first, one_i));
        const __m256 x_top = _mm256_add_ps(x0, _mm256_mul_ps(_mm256_sub_ps(row_line, y0), dxdy));
        const __m256 one_row_ps = _mm256_castsi256_ps(one_row);
        const __m256 xb1 = _mm256_blendv_ps(x_top, x1, one_row_ps);
        const __m256 d1 =
            _mm256_mul_ps(_mm256_blendv_ps(_mm256_sub_ps(row_line, y0), _mm256_sub_ps(y1, y0), one_row_ps), dir);
        const __m256 d2 = _mm256_mul_ps(_mm256_sub_ps(y1, _mm256_cvtepi32_ps(last)), dir);
        _mm256_storeu_si256((__m256i *)row_a, first);
        _mm256_storeu_si256((__m256i *)row_b, last);
        const unsigned few = bits8(_mm256_or_si256(one_row, two_rows)), second = bits8(two_rows), down = bits8(falls);
        const unsigned shown_a =
            bits8(_mm256_andnot_si256(_mm256_cmpgt_epi32(lo_v, first), _mm256_cmpgt_epi32(hi_v, first)));
        const unsigned shown_b = bits8(_mm256_andnot_si256(_mm256_cmpgt_epi32(lo_v, last), _mm256_cmpgt_epi32(hi_v, last)));
        if (((few | ~down) & 0xFFu) == 0xFFu) {
            if (waiting.count > 0) pieces_add8(&waiting, cells, bits, stride, words);
            pairs_add8(cells, bits, stride, words, n, few & shown_a, second & shown_b, row_a, row_b, x0, xb1, d1, x_top,
                       x1, d2);
            continue;
        }
        _mm256_storeu_ps(xb_a, xb1);
        _mm256_storeu_ps(d_a, d1);
        _mm256_storeu_ps(x_mid, x_top);
        _mm256_storeu_ps(d_b, d2);
        lines_to_pieces(&waiting, pieces_add8, cells, bits, stride, words, height, lo, hi, n, few, second, down,
                        shown_a, shown_b, row_a, row_b, xb_a, d_a, x_mid, d_b, lx0 + k, ly0 + k, lx1 + k, ly1 + k,
                        ldir + k);
    }
    pieces_add8(&waiting, cells, bits, stride, words);
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
    if (level == 1) {
        accumulate_lines8(cells, bits, stride, words, height, lo, hi, x0, y0, x1, y1, dir, count);
        return;
    }
#endif
    for (long k = 0; k < count; k++) {
        strata_accumulate_area_rows(cells, bits, stride, words, height, lo, hi, x0[k], y0[k], x1[k], y1[k], dir[k],
                                    level >= 1);
    }
}
