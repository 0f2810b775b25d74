#ifndef STRATA_CPIXELS_H
#define STRATA_CPIXELS_H

#include <stdint.h>

/// Whether the processor has AVX2 (asked once by the caller).
int strata_pixels_have_avx2(void);

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

#endif
