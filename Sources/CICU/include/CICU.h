#ifndef STRATA_CICU_H
#define STRATA_CICU_H

#include <stdint.h>

/// The boundaries of `kind` (0: grapheme clusters, 1: line-break
/// opportunities, 2: words, 3: sentences) in `text` (UTF-16, `length` units), for
/// `locale` ("" for the root; "ja@lb=strict" for strict CJK line breaking):
/// their UTF-16 offsets, in order, from 0 to `length`, written to `offsets`
/// (and, for line breaks, 1 in `mandatory` where the break is a hard one).
/// Returns how many there are (more than `capacity` when they did not all
/// fit), or -1 with ICU's error name in `error`.
long strata_icu_boundaries(const uint16_t *text, long length, int kind, const char *locale,
                           long *offsets, uint8_t *mandatory, long capacity,
                           char *error, long error_size);

/// The paragraph direction UAX #9 gives `text` (UTF-16) by its first strong
/// character (rules P2 and P3): 0 left to right, 1 right to left, -1 when
/// there is no strong character.
int strata_icu_base_direction(const uint16_t *text, long length);

/// The bidirectional embedding levels UAX #9 resolves for each UTF-16 unit
/// of `text` (rules up to W7, N1, N2, I1, I2; L1 for paragraph ends),
/// written to `levels`, and the level of the paragraph holding each unit to
/// `paragraph_levels` (both `length` bytes). `base` sets the paragraph
/// level: 0 left to right, 1 right to left, -1 by each paragraph's first
/// strong character (left to right without one). Returns 0, or -1 when
/// ICU fails.
int strata_icu_bidi_levels(const uint16_t *text, long length, int base,
                           uint8_t *levels, uint8_t *paragraph_levels);

#endif
