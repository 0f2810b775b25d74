// The stroke rasterizer's sampled mode, one strip's centre line (see
// CPixels.h and `StrokeRasterizer.walkSampledStrip`): the walk that was
// Swift's, operation for operation, so the same cells to the bit
// (SampledStripTests holds it to that walk, written out in the test). In C
// the walk keeps its counters, the winding and the place it entered the
// inside in registers across the (rare) intervals it adds, where the Swift
// walk saved and reloaded a dozen of them round each call: about 30
// instructions an edge where Swift took 39 (the line scene's 100,000 points
// make 3.7 million visits a frame).
#include "CPixels.h"

/// Adds coverage `weight` over [a, b) (0 ≤ a, b ≤ the row's width: the walk
/// clamps them) to the row's difference cells, with the partial end pixels
/// covered exactly.
__attribute__((always_inline)) static inline void add_interval(float *cells, uint64_t *bits, float a, float b,
                                                               float weight) {
    if (!(b > a)) return;
    const long ia = strata_truncate(a), ib = strata_truncate(b);
    const float fa = (a - (float)ia) * weight, fb = (b - (float)ib) * weight;
    cells[ia] += weight - fa;
    cells[ia + 1] += fa;
    cells[ib] -= weight - fb;
    cells[ib + 1] -= fb;
    strata_mark_few(bits, ia, 2);
    strata_mark_few(bits, ib, 2);
}

/// One edge of the merged order: its interval's end or start where the
/// winding leaves or reaches zero, and the edge on to `out` with its x on
/// the next strip's centre line.
__attribute__((always_inline)) static inline void visit(const strata_stroke_edge *e, strata_stroke_edge *out,
                                                        long *kept, int32_t *winding, float *enter, int32_t next_s,
                                                        float max_x, float weight, float *cells, uint64_t *bits) {
    const float clamped = e->x >= 0.0f ? e->x : 0.0f;
    const float x = clamped < max_x ? clamped : max_x;
    const int32_t was = *winding;
    const int32_t now = was + (e->fFirst > 0 ? 1 : -1);
    *winding = now;
    if ((was == 0) != (now == 0)) {
        if (now != 0) {
            *enter = x;
        } else {
            add_interval(cells, bits, *enter, x, weight);
        }
    }
    strata_stroke_edge *to = out + *kept;
    strata_copy_edge(to, e);
    to->x = e->xRef + ((float)(int32_t)((uint32_t)next_s - (uint32_t)e->first) + 0.5f) * e->dxdY;
    *kept += e->last > next_s ? 1 : 0;
}

long strata_sampled_strip(const strata_stroke_edge *a, long n, const strata_stroke_edge *b, long m,
                          strata_stroke_edge *out, int32_t s, float weight, float max_x, float *cells,
                          uint64_t *bits) {
    long kept = 0, i = 0, j = 0;
    int32_t winding = 0;
    float enter = 0;
    // (Wrapping, as the Swift walk's `s &+ 1`.)
    const int32_t next_s = (int32_t)((uint32_t)s + 1u);
    float next_arrival = m > 0 ? b[0].x : __builtin_inff();
    while (i < n) {
        const strata_stroke_edge *e = a + i;
        if (next_arrival < e->x) {
            visit(b + j, out, &kept, &winding, &enter, next_s, max_x, weight, cells, bits);
            j++;
            next_arrival = j < m ? b[j].x : __builtin_inff();
        } else {
            visit(e, out, &kept, &winding, &enter, next_s, max_x, weight, cells, bits);
            i++;
        }
    }
    for (; j < m; j++) visit(b + j, out, &kept, &winding, &enter, next_s, max_x, weight, cells, bits);
    if (winding != 0) add_interval(cells, bits, enter, max_x, weight);
    return kept;
}
