#ifndef STRATA_CBENCHDATA_H
#define STRATA_CBENCHDATA_H

#include <stdint.h>

/// The next `n` samples of a random walk whose steps are uniform in ±½ (in
/// 2⁻³² steps), written to `out`; `*value` is the walk's last value, updated.
/// The steps come two from each output of SplitMix64 (`*state` advanced by
/// its step for each pair): the high 32 bits `h` give `h · 2⁻³² − ½`, then
/// the low 32 bits. With AVX-512 the sums are taken eight at a time, so the
/// last bits may differ from a one-by-one sum.
void strata_bench_walk(uint64_t *state, double *value, double *out, long n);

#endif
