#ifndef STRATA_CPNG_H
#define STRATA_CPNG_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Decodes a PNG held in memory into straight (not premultiplied) RGBA, 8 bits a
/// channel, rows packed (stride = width * 4). Any bit depth and colour type is
/// accepted; 16-bit channels are scaled to 8, palettes and grey are expanded, and
/// a missing alpha channel is filled with 255.
///
/// Returns 0 on success, with `*out_pixels` a malloc'ed buffer the caller frees.
/// Returns non-zero on failure, with a NUL-terminated reason in `error`. Images
/// larger than `max_dimension` on a side or `max_pixels` in all are refused before
/// anything is allocated, as are images whose declared size could not come from
/// the compressed data the file holds.
int strata_png_decode(const uint8_t *data, size_t size,
                      uint32_t max_dimension, uint64_t max_pixels,
                      uint8_t **out_pixels, uint32_t *out_width, uint32_t *out_height,
                      char *error, size_t error_size);

/// Encodes straight RGBA rows (8 bits a channel) as a PNG in memory.
/// Returns 0 on success, with `*out_data` a malloc'ed buffer of `*out_size` bytes
/// the caller frees; non-zero on failure, with the reason in `error`.
int strata_png_encode(const uint8_t *rgba, uint32_t width, uint32_t height, size_t stride,
                      int compression_level,
                      uint8_t **out_data, size_t *out_size,
                      char *error, size_t error_size);

/// A PNG file read a band of rows at a time, as RGBA (straight alpha).
typedef struct strata_png_reader strata_png_reader;

/// Opens `path` and reads its header; `*out_interlaced` tells whether rows can
/// only come out all together (Adam7), in which case read it whole instead.
strata_png_reader *strata_png_reader_open(const char *path, uint32_t max_dimension,
                                          uint32_t *out_width, uint32_t *out_height, int *out_interlaced,
                                          char *error, size_t error_size);

/// Reads up to `rows` rows of a non-interlaced PNG, `stride` bytes apart.
/// Returns the rows read (0 at the end) or -1 with a reason in `error`.
int strata_png_reader_read(strata_png_reader *reader, uint8_t *rgba, size_t stride, uint32_t rows,
                           char *error, size_t error_size);

void strata_png_reader_close(strata_png_reader *reader);

#ifdef __cplusplus
}
#endif

#endif
