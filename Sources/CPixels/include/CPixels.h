#ifndef STRATA_CPIXELS_H
#define STRATA_CPIXELS_H

#include <stdint.h>

/// Asks the processor to bring the `lines` cache lines from `p` on towards
/// its caches for reading, without waiting for them (a hint; never faults).
static inline void strata_prefetch_lines(const void *p, int lines) {
    for (int i = 0; i < lines; i++) __builtin_prefetch((const char *)p + 64 * i, 0, 3);
}

/// Whether the processor has AVX2 (asked once by the caller).
int strata_pixels_have_avx2(void);

/// The best build of the kernels this processor runs (2: AVX-512, 1: AVX2,
/// 0: neither), found once before `main` (`strata_kernel_level`).
extern int strata_kernel_level_found;

/// `strata_kernel_level_found`, read where a kernel is chosen: a plain load
/// (a Swift `static let` pays a once-check at every read).
static inline int strata_kernel_level(void) { return strata_kernel_level_found; }

/// Whether the kernels look table entries and image pixels up with the
/// processor's gather (`vpgatherdd`) rather than one load each: found once
/// before `main`, true on processors with AVX-512 whose gathers are fast
/// (Intel's with AVX-512 FP16, from Sapphire Rapids on: no Gather Data
/// Sampling guard slows them). Either way gives the same bytes.
extern int strata_gathers_found;

/// `strata_gathers_found`, read where a lookup is made.
static inline int strata_gathers(void) { return __atomic_load_n(&strata_gathers_found, __ATOMIC_RELAXED); }

/// Turns gathered lookups on or off (tests draw both ways and compare);
/// on only where the kernels have AVX-512 (`strata_kernel_level() == 2`).
/// Returns what was in force before.
int strata_set_gathers(int on);

/// Whether this processor's gathers are fast (`strata_gathers_found`'s
/// first value).
int strata_pixels_gather_fast(void);

/// A rectangle 1 to 7 pixels wide (`width`) and `height` rows from `d`,
/// each pixel `d = s + d·keep/255` with `pairs` = (s, keep) of its left
/// column, its middle columns and its right column (the right's where
/// `width` ≥ 2), as `SolidBlitter.blitRect`'s loop gives them. With `room`
/// (the pixels from `d` to its row's end in memory) of 8 or more, each row
/// is read and written eight pixels wide, the pixels past the rectangle
/// written back unchanged; otherwise under masks. A stroked frame's sides.
/// Call only when `strata_pixels_have_avx2()`.
void strata_blend_narrow_rect_avx2(uint32_t *d, long row_stride, long width, long height, long room,
                                   const uint32_t pairs[6]);

/// A rectangle at least eight pixels wide in three groups of rows, with AVX2
/// (call only when `strata_pixels_have_avx2()`): `rows[g]` rows (0 or more)
/// for group g = 0, 1, 2 one under the other from `d`, each row's first
/// column at coverage `coverage[3g]`, its middle columns at `coverage[3g + 1]`
/// and its last column at `coverage[3g + 2]`, source over (or copy) of
/// `source`. The same bytes as `SolidBlitter.blitRect` for each group.
void strata_blend_rect_avx2(uint32_t *d, long row_stride, long width, const long *rows, const uint8_t *coverage,
                            uint32_t source, int copy);

/// `d[i] = s + d[i]·keep/255` for `count` >= 8 pixels, with AVX2 (call only
/// when `strata_pixels_have_avx2()`): the solid colour's span loop.
void strata_blend_span_avx2(uint32_t *d, long count, uint32_t s, uint32_t keep);

/// `height` rows of `width` >= 8 pixels from `d`, `row_stride` pixels apart,
/// each pixel `d = s + d·keep/255` as `strata_blend_span_avx2` (an aligned
/// fill at one coverage). Call only when `strata_pixels_have_avx2()`.
void strata_blend_block_avx2(uint32_t *d, long row_stride, long width, long height, uint32_t s, uint32_t keep);

/// `count` pixels from `d` set to `value` with ordinary 32-byte stores
/// (a whole canvas cleared). Call only when `strata_pixels_have_avx2()`.
void strata_fill_avx2(uint32_t *d, long count, uint32_t value);

/// A constant colour through `count` >= 1 coverage bytes, with AVX2 (call
/// only when `strata_pixels_have_avx2()`): `lerp` is `d = (s·c + d·(255 − c))/255`
/// rounded once (an opaque source, or copy), `blend` source over with the
/// source scaled by each coverage. The same bytes as `SolidBlitter.blitMask`.
void strata_lerp_mask_avx2(uint32_t *d, long count, const uint8_t *mask, uint32_t source);
void strata_blend_mask_avx2(uint32_t *d, long count, const uint8_t *mask, uint32_t source);

/// Rows of the area rasterizer's difference cells swept into a solid colour,
/// with AVX2 (call only when `strata_pixels_have_avx2()`): the work of
/// `sweepCoverageRow` with a `SolidBlitter` in source over or copy, the same
/// coverage (the running sum in the same order) and the same bytes. Row `y`'s
/// cells are at `cells + y·cell_stride`, its `words` 64-bit words of
/// touched-cell bits at `bits + y·words` (cleared with the cells they mark),
/// and the pixel of its cell 0 at `pixels + y·row_stride`.
void strata_sweep_rows_avx2(float *cells, long cell_stride, uint64_t *bits, long words, long width, long rows,
                            uint32_t *pixels, long row_stride, int even_odd, uint32_t source, int copy);

/// Asks for the cache lines of `rows` rows of `bytes` bytes each, starting
/// at `first`, to be fetched for writing (a hint; any processor).
void strata_prefetch_rows(const void *first, long bytes_per_row, long bytes, long rows);

/// Asks for the cache lines of `row` (32-bit pixels) at the first and last
/// pixel of each run `runs[2k] ..< runs[2k + 1]`, k < `count`.
void strata_prefetch_runs(const uint32_t *row, const long *runs, long count);

// The area rasterizer's cell arithmetic (AreaRasterizer.swift), in C because
// Swift checks every Float-to-Int conversion against Int's range (a dozen
// instructions and six branches each, four conversions an edge and a row) and
// would not inline the row's work into the loop over an edge's rows. The
// operations and their order are those the Swift versions had, so the cells
// hold the same values; contraction into fused multiply-adds is off.
#pragma STDC FP_CONTRACT OFF

/// Sets the bits of cells `first ... last` in one row's bit vector.
__attribute__((always_inline)) static inline void strata_mark_cells(uint64_t *b, long first, long last) {
    const long w0 = first >> 6, w1 = last >> 6;
    const uint64_t lo = ~(uint64_t)0 << (first & 63);
    const uint64_t hi = ~(uint64_t)0 >> (63 - (last & 63));
    if (w0 == w1) {
        b[w0] |= lo & hi;
    } else {
        b[w0] |= lo;
        for (long w = w0 + 1; w < w1; w++) b[w] = ~(uint64_t)0;
        b[w1] |= hi;
    }
}

/// `v` truncated toward zero, for a finite `v` inside `long`'s range: the
/// conversion without the range checks Swift's `Int(_: Float)` makes.
__attribute__((always_inline)) static inline long strata_truncate(float v) { return (long)v; }

/// Marks cells `c ..< c + n` (n = 2 or 3) in one row's bits: what
/// `strata_mark_cells(b, c, c + n − 1)` does, with one shift and OR (and a
/// second where the cells cross a word's end) instead of its loop and masks.
__attribute__((always_inline)) static inline void strata_mark_few(uint64_t *b, long c, long n) {
    const long w = c >> 6, o = c & 63;
    const uint64_t run = ((uint64_t)1 << n) - 1;
    b[w] |= run << o;
    if (o > 64 - n) b[w + 1] |= run >> (64 - o);
}

/// A piece of an edge across cells `il` < `ir` (`il` = ⌊xl⌋, `ir` = ⌊xr⌋,
/// xl < xr), descending `d`: its height a unit of x (`s`), and the coverage
/// of its first and last cells before differencing (`c0`, `c_last`). With
/// s = d / (xr − xl), the coverage of cell i is s·(H(i+1−xl) − H(i+1−xr)),
/// where H is the integral of clamp(u, 0, 1): 0, u²/2, or u − ½.
__attribute__((always_inline)) static inline void strata_piece_ends(float xl, float xr, long il, long ir, float d,
                                                                    float *s, float *c0, float *c_last) {
    *s = d / (xr - xl);
    const float fl = (float)(il + 1) - xl;
    *c0 = *s * fl * fl * 0.5f;
    const float fr = (float)(ir + 1) - xr;
    *c_last = *s * ((float)ir + 0.5f - xl - fr * fr * 0.5f);
}

/// Adds to one row of difference cells the coverage an edge gives the pixels
/// to its right: the edge runs from x = `xa` to x = `xb` (0 ... the row's
/// width, or at most one past it: the callers clamp to the width, and an
/// interpolated x strays from it by a few ulps; a negative x or NaN is taken
/// as 0, anything larger is the caller's error) while descending `d`
/// (signed, in rows) of the row. Each pixel gets exactly the area between the
/// edge and the pixel's right side (times `d`); the running sum of the cells
/// is that coverage. Marks the cells written in `bits`.
__attribute__((always_inline)) static inline void strata_add_edge_area(float *line, uint64_t *bits, float xa, float xb, float d) {
    if (!(xa >= 0)) xa = 0;
    if (!(xb >= 0)) xb = 0;
    const float xl = xb < xa ? xb : xa, xr = xb >= xa ? xb : xa;
    const long il = (long)xl, ir = (long)xr;
    if (il == ir || xr - xl < 1.0f / 128) {
        // Within one cell: the covered area to the right of the line is set by
        // its mean x, exactly. A line under 1/128 px wide that straddles a
        // cell border is treated the same way (the formula below divides by
        // its width and would lose precision); that misplaces at most 1/256
        // of its height between the two cells.
        const float xm = (xa + xb) * 0.5f;
        const long i = (long)xm;
        const float f = xm - (float)i;
        line[i] += d - d * f;
        line[i + 1] += d * f;
        strata_mark_few(bits, i, 2);
        return;
    }
    // Across cells il ... ir (`strata_piece_ends`).
    float s, c0, c_last;
    strata_piece_ends(xl, xr, il, ir, d, &s, &c0, &c_last);
    line[il] += c0;
    if (ir == il + 1) {
        line[ir] += c_last - c0;
    } else {
        const float c1 = s * ((float)(il + 1) + 0.5f - xl);
        line[il + 1] += c1 - c0;
        for (long i = il + 2; i < ir; i++) line[i] += s;
        const float c_prev = c1 + s * (float)(ir - il - 2);
        line[ir] += c_last - c_prev;
    }
    line[ir + 1] += d - c_last;
    if (ir == il + 1) {
        strata_mark_few(bits, il, 3);
    } else {
        strata_mark_cells(bits, il, ir + 1);
    }
}

/// Accumulates a line with 0 ≤ y0 < y1 ≤ `height` and 0 ≤ x ≤ the band's
/// width into a band of cells (`stride` cells and `words` bit words a row):
/// its area in each row it crosses, at the x where it crosses the row lines
/// (recomputed from the start, not stepped, so a tall edge does not drift).
/// With `avx2` (pass 1 only when `strata_pixels_have_avx2()`), the rows the
/// line crosses whole are worked out eight at a time, with the same values
/// (tests hold the two paths to each other).
void strata_accumulate_area(float *cells, uint64_t *bits, long stride, long words, long height, float x0, float y0,
                            float x1, float y1, float dir, int avx2);

/// `strata_accumulate_area` for the band rows `lo ..< hi` alone (0 ≤ lo ≤ hi
/// ≤ `height`): the pieces the line leaves in those rows, each with the
/// values the whole line gives it (a row's piece depends on the line and the
/// row only); no cell outside them is written. A thread's band of a frame
/// reads only its rows of a shape that crosses several.
void strata_accumulate_area_rows(float *cells, uint64_t *bits, long stride, long words, long height, long lo, long hi,
                                 float x0, float y0, float x1, float y1, float dir, int avx2);

/// `count` lines, line k from (x0[k], y0[k]) to (x1[k], y1[k]) with direction
/// dir[k], each as `strata_accumulate_area` adds it, in that order and with
/// the same values (accumulate_lines.c): with `level` 2 (AVX-512, as
/// `strata_kernel_level`) sixteen at a time, with `level` 1 (AVX2) eight,
/// lines within two rows worked out in the lanes of vectors; with `level` 0
/// one call each.
void strata_accumulate_lines(float *cells, uint64_t *bits, long stride, long words, long height, const float *x0,
                             const float *y0, const float *x1, const float *y1, const float *dir, long count,
                             int level);

/// `strata_accumulate_lines` for the band rows `lo ..< hi` alone, as
/// `strata_accumulate_area_rows` adds each line.
void strata_accumulate_lines_rows(float *cells, uint64_t *bits, long stride, long words, long height, long lo, long hi,
                                  const float *x0, const float *y0, const float *x1, const float *y1, const float *dir,
                                  long count, int level);

/// One edge of the stroke rasterizer's active list (`ActiveEdge` in
/// StrokeRasterizer.swift, which documents the fields): heights in strips,
/// four to a pixel row; shares of a strip in 1/65536.
typedef struct strata_stroke_edge {
    float x, xRef, dxdY, top;
    int32_t first, last, fFirst, fLast;
} strata_stroke_edge;

/// Copies an edge: two 16-byte moves. (Swift copied the struct through the
/// stack in overlapping pieces, whose reload the processor could not forward
/// from the stores: a quarter of the stroke sweep's sorting time.)
__attribute__((always_inline)) static inline void strata_copy_edge(strata_stroke_edge *to, const strata_stroke_edge *from) {
    __builtin_memcpy(to, from, sizeof *from);
}

/// One pixel row of the stroke rasterizer's area mode, strips `s0 ... s0 + 3`
/// (stroke_rows.c): the active edges `a[0 ..< n]` (sorted by their mean x in
/// strip `s0`) and the row's arrivals `b[0 ..< m]` (sorted by their mean x in
/// their first strip), each followed by an edge with x = +∞ (`a[n]`, `b[m]`),
/// walked as the strip walk walks each of the four strips, the coverage
/// changes added to the row's `cells` and `bits`. `keys` holds 26·(n + m) + 1
/// floats (scratch). The edges that reach below
/// the row go to `out` (room for n + m), in order, with their mean x in strip
/// `s0 + 4`; returns their count, or −1 (nothing added to the cells, `out`
/// undefined) when edges that cross inside the row make a cluster too large
/// to walk here.
/// Adds the clusters walked strip by strip to `*clusters` (for tests).
/// The `avx2` version only where `strata_pixels_have_avx2()`, the `avx512`
/// one only where `strata_pixels_have_avx512()`.
long strata_stroke_row(const strata_stroke_edge *a, long n, const strata_stroke_edge *b, long m,
                       float *keys, strata_stroke_edge *out, int32_t s0,
                       float *cells, uint64_t *bits, float max_x, long *clusters);
long strata_stroke_row_avx2(const strata_stroke_edge *a, long n, const strata_stroke_edge *b, long m,
                            float *keys, strata_stroke_edge *out, int32_t s0,
                            float *cells, uint64_t *bits, float max_x, long *clusters);
long strata_stroke_row_avx512(const strata_stroke_edge *a, long n, const strata_stroke_edge *b, long m,
                              float *keys, strata_stroke_edge *out, int32_t s0,
                              float *cells, uint64_t *bits, float max_x, long *clusters);

/// One strip of the stroke rasterizer's sampled mode (sampled_strip.c): the
/// active edges `a[0 ..< n]` and the strip's arrivals `b[0 ..< m]`, each
/// sorted by x on the strip's centre line, merged (an arrival after the
/// edges it ties with) and walked under the non-zero rule; where the winding
/// is inside, coverage `weight` is added to the row's `cells` (marked in
/// `bits`) with exact ends along x, within 0 ... `max_x`. The edges that
/// reach below strip `s` go on to `out` (room for n + m) with their x on the
/// next centre line, in the order walked; returns how many.
long strata_sampled_strip(const strata_stroke_edge *a, long n, const strata_stroke_edge *b, long m,
                          strata_stroke_edge *out, int32_t s, float weight, float max_x, float *cells,
                          uint64_t *bits);

/// Whether the processor has AVX-512 (F, VL, BW and DQ).
int strata_pixels_have_avx512(void);

/// A padded linear gradient's span in 16.16 fixed point: `out[i]` is
/// `table[min(max(u0 + i·du, 0), 255·2¹⁶) >> 16]` for i in 0 ..< count, where
/// every u0 + i·du for i < count + 8 fits in 32 bits (`GradientShader.linearPieces`). Call
/// only when `strata_pixels_have_avx2()`.
void strata_linear_pad_span_avx2(const uint32_t *table, int32_t u0, int32_t du, uint32_t *out, long count);

/// The same span's sources blended source over onto `d`: through `mask`'s
/// coverage bytes when `mask` is not NULL (as `strata_source_over_mask_avx2`),
/// otherwise at constant `coverage` 0...255 (as `strata_source_over_avx2`),
/// bit for bit as shading the span and then blending it. Call only when
/// `strata_pixels_have_avx2()`.
void strata_linear_pad_over_avx2(uint32_t *d, const uint32_t *table, int32_t u0, int32_t du, long count,
                                 uint32_t coverage, const uint8_t *mask);

/// A row of an image `width` (1 ... 32) pixels wide, from its pixel
/// `column` on, `count` (up to 2^24) pixels: repeated (`repeat` not 0;
/// `column` within 0 ..< `width`), each source `row[(column + i) mod
/// width]`, or padded (`column` within ±2^24), `row[min(max(column + i, 0),
/// width − 1)]`; blended source over onto `d` through `mask`'s coverage
/// bytes when `mask` is not NULL (as `strata_source_over_mask_avx2`),
/// otherwise at constant `coverage` (as `strata_source_over_avx2`), bit for
/// bit as copying the sources out and blending them. The sources are picked
/// from the row held in registers, sixteen at a time: no buffer, no call a
/// period. Returns 0, doing nothing, where the kernels lack AVX-512
/// (`strata_kernel_level() < 2`) or an argument is out of range; else 1.
int strata_source_over_image_row_avx512(uint32_t *d, const uint32_t *row, long width, long column, long count,
                                        uint32_t coverage, const uint8_t *mask, int repeat);

/// `strata_source_over_image_row_avx512` where the kernels have AVX-512,
/// else with AVX2 (the sources copied out eight at a time, then blended):
/// the same bytes. Returns 0, doing nothing, without AVX2 or where an
/// argument is out of range; else 1.
int strata_source_over_image_row(uint32_t *d, const uint32_t *row, long width, long column, long count,
                                 uint32_t coverage, const uint8_t *mask, int repeat);

/// A rectangle's rows of an image's own pixels (an image drawn 1:1, or a
/// nearest-neighbour pattern moved along x only), blended source over:
/// `rows` and `cover` as `strata_rect_linear_rows_avx2` takes them, `width`
/// at most 256; row r (counted over the three groups, device row y + r)
/// from the image row `ImageShader.unsampledRow` gives it: the image moved
/// by whole pixels (`shifted`, `dy` rows) or its row coordinate
/// d·(y + r + ½) + ty reduced (nothing drawn where that is not a number),
/// repeated or padded as the columns; its pixels from column `column` on,
/// each image row `image_width` pixels long, repeated (`repeat`: `column`
/// within 0 ..< image_width) or padded (places outside take the edge
/// pixel; `column` within ±2^24). Bit for bit as copying each row's
/// sources out and blending them through its coverage
/// (`strata_source_over_mask_avx2`, `strata_source_over_avx2`). Returns the
/// rows drawn (all of them), or −1, drawing nothing, where the kernels lack
/// AVX-512 or an argument is out of range.
long strata_rect_image_rows_avx512(uint32_t *pixels, long row_stride, long width, const long rows[3], const uint8_t cover[9],
                                   const uint32_t *image, long image_stride, long image_width, long image_height,
                                   int shifted, long dy, double d, double ty, long y, long column, int repeat);

/// `strata_rect_image_rows_avx512` where the kernels have AVX-512, else
/// with AVX2 (each row's sources blended from the image row, or copied
/// out where the row wraps or passes the image's edge): the same bytes.
/// −1, drawing nothing, without AVX2 or where an argument is out of range.
long strata_rect_image_rows(uint32_t *pixels, long row_stride, long width, const long rows[3], const uint8_t cover[9],
                            const uint32_t *image, long image_stride, long image_width, long image_height, int shifted,
                            long dy, double d, double ty, long y, long column, int repeat);

/// `strata_rect_image_rows_avx512` for an image moved without scaling and
/// sampled bilinearly (`ImageShader.shadeTranslated`: the inverse map's d,
/// tx and ty; a = 1, b = c = 0), repeated or padded: each row's two image
/// rows and weight, each pixel's column and the next's weight as it finds
/// them, so its pixels; nothing drawn on a row whose coordinate is not a
/// number. −1, drawing nothing, without AVX-512, past 256 pixels, or where
/// the first column is 2^31 or more from the image.
long strata_rect_bilinear_rows_avx512(uint32_t *pixels, long row_stride, long width, const long rows[3],
                                      const uint8_t cover[9], const uint32_t *image, long image_stride, long image_width,
                                      long image_height, double d, double tx, double ty, long x, long y, int repeat);

/// `strata_rect_bilinear_rows_avx512` where the kernels have AVX-512, else
/// with AVX2 (each row's sources mixed as `ImageShader.shadeTranslated`
/// mixes them, then blended through its coverage): the same bytes. −1,
/// drawing nothing, without AVX2 or where an argument is out of range.
long strata_rect_bilinear_rows(uint32_t *pixels, long row_stride, long width, const long rows[3], const uint8_t cover[9],
                               const uint32_t *image, long image_stride, long image_width, long image_height, double d,
                               double tx, double ty, long x, long y, int repeat);

/// Source over from an array through per-pixel coverage: `d[i] = s'[i] + d[i]·(255 − α(s'[i]))/255`
/// where `s'[i]` is `s[i]` scaled by `mask[i]`/255, rounded as `scalePacked`
/// (`ShaderBlitter.blitMask`'s loop). Call only when `strata_pixels_have_avx2()`.
void strata_source_over_mask_avx2(uint32_t *d, const uint32_t *s, long count, const uint8_t *mask);

/// The rows of a rectangle 1 ... 4 pixels wide whose sources were shaded a
/// column at a time (column c's source for row r at `s[c·s_stride + r]`),
/// column c at `coverage[c]`: each row as `strata_source_over_mask_avx2`
/// with those coverage bytes, bit for bit (a column at coverage 0 need
/// not be shaded). Call only when
/// `strata_pixels_have_avx2()`.
void strata_source_over_columns_avx2(uint32_t *d, long d_stride, const uint32_t *s, long s_stride, long width,
                                     long height, const uint8_t coverage[4]);

/// A padded two-circle radial gradient's span (`GradientShader`'s radial case
/// with pad, both ends extended): `out[i]` for the i-th pixel, whose offset
/// from the first circle's centre in user space is (g[0] + i·g[2],
/// g[1] + i·g[3]), its t found with the same operations as `radialT`, then
/// `table`'s entry (0 where no circle passes through the pixel). `g` holds
/// those four, then c1.x − c0.x, c1.y − c0.y, r0, r1 − r0, qa, 1/qa, the
/// sign of qa (±1), 0 where no pixel of the span can take `radialT`'s
/// one-root case (1 to test each), and 1 where the focal circle is a point
/// inside the end circle (r0 = 0, r1 > 0, qa < 0, no one-root test; else
/// 0). There every pixel takes the larger root, and the kernel finds it
/// from g[13 ... 17]: qb = g[13] + i·g[14] and the discriminant
/// g[15] + i·(g[16] + i·g[17]), t = (qb − √disc)/qa
/// (`GradientShader.radialFocalEntry`'s operations); and where g[18] = 1,
/// in single precision from g[19 ... 23] (`GradientShader.radialSingle`).
/// `table` has a 257th entry, 0, read where nothing is drawn. Call only when
/// `strata_pixels_have_avx2()`.
void strata_radial_pad_span_avx2(const uint32_t *table, const double *g, long count, uint32_t *out);
/// The same, eight pixels a step: the same entries. Call only when
/// `strata_pixels_have_avx512()`.
void strata_radial_pad_span_avx512(const uint32_t *table, const double *g, long count, uint32_t *out);

/// The odd polynomial r·(K0 + K1·s + … + K5·s⁵), s = r², for atan(r)/2π on
/// 0 ≤ r ≤ 1 (fitted here to within 2.8·10⁻⁷ of a turn, evaluated in single
/// precision): `GradientShader.conicTurn` and `strata_conic_span_avx2`
/// share these values.
#define STRATA_CONIC_K0 0.15915131568908691f
#define STRATA_CONIC_K1 -0.052938565611839294f
#define STRATA_CONIC_K2 0.030802907422184944f
#define STRATA_CONIC_K3 -0.018529850989580154f
#define STRATA_CONIC_K4 0.008379085920751095f
#define STRATA_CONIC_K5 -0.001865158206783235f

/// A conic gradient's span (`GradientShader`'s conic case): `out[i]` for the
/// i-th pixel, whose offset from the centre in user space is (g[0] + i·g[2],
/// g[1] + i·g[3]), its turn `conicTurn` less g[4] wrapped into 0 ..< 1, then
/// `table`'s entry (its 257th, 0, where the turn is NaN), with the same single-precision
/// operations as `GradientShader.conicTurn`. Call only when
/// `strata_pixels_have_avx2()`.
void strata_conic_span_avx2(const uint32_t *table, const float *g, long count, uint32_t *out);
/// The same, sixteen pixels a step: the same entries. Call only when
/// `strata_pixels_have_avx512()`.
void strata_conic_span_avx512(const uint32_t *table, const float *g, long count, uint32_t *out);

/// An image under an affine map, sampled along a span (with AVX2; call only
/// when `strata_pixels_have_avx2()`): pixel i at image point
/// (u0 + i·du, v0 + i·dv), each coordinate brought into the image by whole
/// periods (a repeat) or clamped (`pad`), then the nearest pixel or
/// (`bilinear`) the four around it mixed as `ImageShader.mix`: the same
/// operations as `ImageShader`'s loops, so the same pixels. Every
/// coordinate of the span must be under 2^40 in magnitude (the span's ends
/// say), and stride × height under 2^31.
void strata_affine_span_avx2(const uint32_t *pixels, long stride, long width, long height, double u0, double v0,
                             double du, double dv, long count, uint32_t *out, int bilinear, int pad);

/// `strata_affine_span_avx2` for a padded image sampled bilinearly along a
/// row of the image (dv = 0: an image only scaled and moved, or sheared
/// along x), with the same pixels: each column the span reads is mixed
/// between the two rows once, then each pixel from its two columns (two
/// loads a pixel, not four). Returns 0, writing nothing, where the span
/// reads more than 1,024 columns or more than two a pixel (a strong
/// reduction, which the affine kernel does better); 1 when done. The same
/// conditions on the coordinates.
int strata_scaled_span_avx2(const uint32_t *pixels, long stride, long width, long height, double u0, double v0,
                            double du, long count, uint32_t *out);

/// `out[i] = lerp(a[i], b[i], w)` for i < count: premultiplied pixels mixed as
/// `a·(256 − w) + b·w` over 256, each channel rounded (`ImageShader.lerp`),
/// `w` in 0...256. Call only when `strata_pixels_have_avx2()`.
void strata_lerp_rows_avx2(const uint32_t *a, const uint32_t *b, long count, uint32_t w, uint32_t *out);

/// In place, `v[i] = lerp(v[i], v[i + 1], w)` for i < count − 1 and
/// `v[count − 1] = lerp(v[count − 1], last, w)` (the columns of a bilinear
/// row mixed with their right neighbours). Call only when
/// `strata_pixels_have_avx2()`.
void strata_lerp_neighbours_avx2(uint32_t *v, long count, uint32_t last, uint32_t w);

/// One row of the cell rasterizer's difference cells turned into coverage
/// bytes, exactly as `strata_sweep_rows_avx2` computes them (so the same
/// bytes as `sweepCoverageSpans`), its cells and bits cleared. Returns the
/// number of runs written to `runs` (start and end pairs, in order; at most
/// `capacity` runs, `runs` holding 2·capacity longs; a capacity below 1
/// counts as 1). Only the bytes within runs are written: the pixels
/// outside them are uncovered, and their bytes keep whatever they held. A
/// run goes from a touched cell to the end of the last block before
/// sixteen or more uncovered pixels, or to `width` where the coverage
/// reaches the row's end; bytes within a run may be 0 (a narrower gap, a
/// block's tail). When the runs would pass `capacity`, the last one takes
/// in the rest of the row.
/// Call only when `strata_pixels_have_avx2()`.
long strata_sweep_coverage_avx2(float *line, uint64_t *bits, long words, long width, int even_odd, uint8_t *out,
                                long *runs, long capacity);

/// A row's sources for `strata_sweep_shaded_row_avx2`, pixel i (its place
/// from the row's first pixel) taking:
/// - `STRATA_ROW_LINEAR`: a padded linear gradient's entry
///   `table[min(max(u0 + i·du, 0), 255·2¹⁶) >> 16]` (32-bit, wrapping), as
///   `strata_linear_pad_over_avx2` gives it, where every u0 + i·du for
///   i < width + 8 fits in 32 bits;
/// - `STRATA_ROW_RADIAL_FOCAL`: a padded radial gradient's entry whose focal
///   point is inside its end circle, from `g` (24 values, g[12] = 1) as
///   `strata_radial_pad_span_avx2` gives pixel i of its span;
/// - `STRATA_ROW_CONIC`: a conic gradient's entry from `c` (5 values) as
///   `strata_conic_span_avx2` gives pixel i of its span;
/// - `STRATA_ROW_IMAGE`: a repeated image row's pixel `table[(u0 + i) mod du]`
///   (`table` the row's first pixel, du ≥ 1 its width, 0 ≤ u0 < du), blended
///   as `strata_source_over_mask_avx2` blends it.
/// A gradient's `table` has all 256 entries made, and the transparent 257th.
typedef struct strata_row_paint {
    int kind;
    const uint32_t *table;
    int32_t u0, du;
    const double *g;
    const float *c;
} strata_row_paint;
#define STRATA_ROW_LINEAR 1
#define STRATA_ROW_RADIAL_FOCAL 2
#define STRATA_ROW_CONIC 3
#define STRATA_ROW_IMAGE 4

/// One row's cells swept (as `strata_sweep_rows_avx2`, cells and bits left
/// zero) with `paint`'s sources blended source over onto `row` through
/// their coverage, bit for bit as sweeping the row's coverage bytes
/// (`strata_sweep_coverage_avx2`) and blending the sources through them.
/// Call only when `strata_pixels_have_avx2()`.
void strata_sweep_shaded_row_avx2(float *line, uint64_t *bits, long words, long width, uint32_t *row, int even_odd,
                                  const strata_row_paint *paint);

/// `GradientShader.radialParameters` for pixels `x ..< x + count` of row
/// `y`, written to `g` (24 values), as the radial band kernels work them
/// out (with AVX2 only: elsewhere `g` is left as it is): `k` holds the
/// inverse transform's a, b, c, d, tx, ty, then c0's x and y, r0, c1's x
/// and y, r1.
void strata_radial_parameters(double *g, const double *k, long x, long y, long count);

/// `strata_sweep_linear_rows_avx2` for a padded radial gradient whose focal
/// point is inside its end circle (`STRATA_ROW_RADIAL_FOCAL`): `k` as
/// `strata_radial_parameters` takes it, each row's parameters worked out
/// there; it stops at the first row whose span the focal polynomials do not
/// take (g[12] = 0), and returns −1 where the band's constants refuse every
/// row (no focal point inside the end circle, a span over 10⁴ radii).
/// Call only when `strata_pixels_have_avx2()`.
long strata_sweep_radial_rows_avx2(float *cells, long cell_stride, uint64_t *bits, long words, long width, long rows,
                                   uint32_t *pixels, long row_stride, int even_odd, const uint32_t *table,
                                   const double *k, long x, long y);

/// `strata_sweep_linear_rows_avx2` for a repeated image's rows read as they
/// are (`STRATA_ROW_IMAGE`, `ImageShader.rowPaint`): the image `image_width`
/// × `image_height` pixels, rows `image_stride` apart, moved by whole
/// pixels (`shifted`, by `dx`, `dy`) or, unscaled along x and sampled at
/// the nearest pixel, placed by tx and by d, ty down the rows (the
/// caller checks the rest of what `rowPaint` asks). It stops at the first
/// row whose coordinate is not finite; −1 where the band's first column lies
/// past 2³¹. Call only when `strata_pixels_have_avx2()`.
long strata_sweep_image_rows_avx2(float *cells, long cell_stride, uint64_t *bits, long words, long width, long rows,
                                  uint32_t *pixels, long row_stride, int even_odd, const uint32_t *image,
                                  long image_stride, long image_width, long image_height, int shifted, long dx, long dy,
                                  double d, double tx, double ty, long x, long y);

/// `strata_sweep_image_rows_avx2` for a repeated image sampled bilinearly
/// and moved along x only (unscaled along x; d, ty down the rows; tx
/// along them): pixel i of a row mixes the two image rows around its centre,
/// then the columns k and k + 1 around it, wrapped
/// (`ImageShader.shadeTranslated`'s pixels), blended as
/// `strata_source_over_mask_avx2` blends them. The caller checks the rest
/// of what the image row kind asks (full alpha, a repeat, wide enough). It
/// stops at the first row whose coordinate is not finite; −1 where the
/// band's first column lies past 2³¹ or the image is empty. Call only when
/// `strata_pixels_have_avx2()`.
long strata_sweep_bilinear_rows_avx2(float *cells, long cell_stride, uint64_t *bits, long words, long width, long rows,
                                     uint32_t *pixels, long row_stride, int even_odd, const uint32_t *image,
                                     long image_stride, long image_width, long image_height, double d, double tx,
                                     double ty, long x, long y);

/// `strata_sweep_image_rows_avx2` for an image at any angle, repeated or
/// padded (`pad`), through the affine kernel (`strata_affine_span_avx2`,
/// sampled bilinearly with `bilinear`, else at the nearest pixel): `m` is
/// the map from device to image points (a, b, c, d, tx, ty); each row's
/// pixels are the kernel's span from the row's first pixel, blended as
/// `strata_source_over_mask_avx2` blends them. The caller checks the rest
/// of what the image row kind asks (full alpha, indices within 32 bits). It stops at the first row whose coordinates lie 2⁴⁰ or more
/// from the image or are not numbers; −1 for an empty image. Call only
/// when `strata_pixels_have_avx2()`.
long strata_sweep_affine_rows_avx2(float *cells, long cell_stride, uint64_t *bits, long words, long width, long rows,
                                   uint32_t *pixels, long row_stride, int even_odd, const uint32_t *image,
                                   long image_stride, long image_width, long image_height, const double m[6],
                                   int bilinear, int pad, long x, long y);

/// `strata_sweep_linear_rows_avx2` for a conic gradient
/// (`STRATA_ROW_CONIC`): `k` holds the inverse transform's a, b, c, d, tx,
/// ty, the centre's x and y and the angle; each row's five parameters
/// worked out there as `GradientShader.conicParameters` does; it stops at
/// the first row they do not fit (its offsets beyond 2²⁰); −1 where the
/// angle is not finite. Call only when `strata_pixels_have_avx2()`.
long strata_sweep_conic_rows_avx2(float *cells, long cell_stride, uint64_t *bits, long words, long width, long rows,
                                  uint32_t *pixels, long row_stride, int even_odd, const uint32_t *table,
                                  const double *k, long x, long y);

/// Rows `0 ..< rows` of a band (cells `cell_stride` apart, bits `words`
/// apart, pixels `row_stride` apart, the band's first pixel `pixels`, at
/// device column `x` and row `y`) swept with a padded linear gradient
/// shaded as they are (`strata_sweep_shaded_row_avx2`), where t = a·x + b·y
/// + c at pixel centres and `table` has all its entries: each row's piece
/// worked out as `GradientShader.rowPaint` does, the same values. Returns
/// how many rows were swept: it stops at the first row whose span reaches
/// past t = −1 ... 2 (the caller sweeps that one its own way); −1, sweeping
/// none, where no row of the band can be taken (|a| ≥ 4, or the width is
/// not positive).
/// Call only when `strata_pixels_have_avx2()`.
long strata_sweep_linear_rows_avx2(float *cells, long cell_stride, uint64_t *bits, long words, long width, long rows,
                                   uint32_t *pixels, long row_stride, int even_odd, const uint32_t *table, double a,
                                   double b, double c, long x, long y);

/// The rows of a rectangle `width` pixels wide (its first pixel `pixels`,
/// at device column `x` and row `y`; rows `row_stride` apart) in three
/// groups one under the other, `rows[g]` rows each, every row of group g
/// covered alike: its first pixel at coverage `cover[3g]`, the pixels
/// between at `cover[3g + 1]`, its last at `cover[3g + 2]` (0 leaves them
/// as they are); shaded by a padded linear gradient as
/// `strata_sweep_linear_rows_avx2` shades a band's rows (the same rows
/// taken and refused, the same sources) and blended source over. Returns
/// how many rows were drawn from the first, or −1 for none whatever the
/// row. Call only when `strata_pixels_have_avx2()`.
long strata_rect_linear_rows_avx2(uint32_t *pixels, long row_stride, long width, const long rows[3], const uint8_t cover[9],
                                  const uint32_t *table, double a, double b, double c, long x, long y);

/// `strata_rect_linear_rows_avx2` for a radial gradient, as
/// `strata_sweep_radial_rows_avx2` takes it.
long strata_rect_radial_rows_avx2(uint32_t *pixels, long row_stride, long width, const long rows[3], const uint8_t cover[9],
                                  const uint32_t *table, const double *k, long x, long y);

/// `strata_rect_linear_rows_avx2` for a conic gradient, as
/// `strata_sweep_conic_rows_avx2` takes it.
long strata_rect_conic_rows_avx2(uint32_t *pixels, long row_stride, long width, const long rows[3], const uint8_t cover[9],
                                 const uint32_t *table, const double *k, long x, long y);

/// Entries `out[0 ..< count]` of a gradient table's ramp: entry k's r, g, b
/// and a in 16.16 fixed point are `start[c] + k·step[c]` (32-bit, wrapping),
/// each level their integer part clamped to 0...255, and r, g, b
/// premultiplied by a as `Pixel.multiply` does. Packed R, G, B, A in memory.
/// Call only when `strata_pixels_have_avx2()`.
void strata_gradient_ramp_avx2(uint32_t *out, long count, const int32_t start[4], const int32_t step[4]);

/// A gradient's whole 256-entry table at `out`, as `GradientTablePlan`
/// plans and fills it, byte for byte: `count` stops from `stops`, `stride`
/// doubles apart, each red, green, blue, alpha (straight, 0...1) then its
/// location (sorted, within 0...1); every alpha times `alpha`. Returns 0,
/// the table unfinished, where a ramp's fixed-point values would not fit
/// the 32-bit kernel (the caller then makes it by the plan); 1 when done.
/// Call only when `strata_pixels_have_avx2()`.
int strata_gradient_table_avx2(uint32_t *out, const double *stops, long stride, long count, double alpha);

/// Source over from an array: `d[i] = s'[i] + d[i]·(255 − α(s'[i]))/255` where
/// `s'` is `s` scaled by `coverage`/255 (0...255), rounded as the portable
/// loops round. Call only when `strata_pixels_have_avx2()`.
void strata_source_over_avx2(uint32_t *d, const uint32_t *s, long count, uint32_t coverage);
/// `height` rows of `width` pixels (`d_stride` and `s_stride` pixels
/// apart), each as `strata_source_over_avx2(d, s, width, 255)`. AVX2 only.
void strata_source_over_rect_avx2(uint32_t *d, long d_stride, const uint32_t *s, long s_stride, long width,
                                  long height);

#endif
