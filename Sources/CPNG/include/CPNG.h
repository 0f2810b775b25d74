#ifndef STRATA_CPNG_H
#define STRATA_CPNG_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// A PNG held in memory, decoded in two steps so that the caller can allocate
/// the pixels itself (into the image's own storage, with no copy) once it
/// knows the size.
typedef struct strata_png_decoder strata_png_decoder;

/// Reads the header of a PNG held in memory. Images larger than `max_dimension`
/// on a side or `max_pixels` in all are refused, as are files with a chunk
/// longer than the data there is, and images whose declared size could not
/// come from the compressed data the file holds, all before anything large is
/// allocated. Ancillary chunks libpng keeps are limited to 8 MB each.
/// Returns NULL with a NUL-terminated reason in `error` on failure.
strata_png_decoder *strata_png_decoder_open(const uint8_t *data, size_t size,
                                            uint32_t max_dimension, uint64_t max_pixels,
                                            uint32_t *out_width, uint32_t *out_height,
                                            char *error, size_t error_size);

/// Decodes the whole image into straight (not premultiplied) RGBA, 8 bits a
/// channel, rows `stride` bytes apart. Any bit depth and colour type is
/// accepted; 16-bit channels are scaled to 8, palettes and grey are expanded,
/// and a missing alpha channel is filled with 255. Returns 0, or non-zero with
/// a reason in `error` (the decoder is then only good for closing).
int strata_png_decoder_read(strata_png_decoder *decoder, uint8_t *rgba, size_t stride,
                            char *error, size_t error_size);

void strata_png_decoder_close(strata_png_decoder *decoder);

/// Encodes straight RGBA rows (`channels` 4) or RGB rows (`channels` 3), 8
/// bits a channel, as a PNG in memory, with zlib's `compression_level` and
/// `strategy` (0 default, 1 filtered, 2 Huffman only, 3 RLE) and libpng's
/// row `filters` (PNG_FILTER_* flags; several let libpng choose per row).
/// Returns 0 on success, with `*out_data` a malloc'ed buffer of `*out_size` bytes
/// the caller frees; non-zero on failure, with the reason in `error`.
int strata_png_encode(const uint8_t *rgba, uint32_t width, uint32_t height, size_t stride,
                      int channels, int compression_level, int strategy, int filters,
                      uint8_t **out_data, size_t *out_size,
                      char *error, size_t error_size);

/// Encodes premultiplied RGBA rows as a PNG in memory with ISA-L's igzip at
/// `level` (0…3), every row with `filter` (0 none, 1 Sub, 2 Up); as RGB when
/// `omit_opaque_alpha` and every pixel is opaque, otherwise as straight
/// RGBA. Returns 0 on success, with `*out_data` a malloc'ed buffer of
/// `*out_size` bytes the caller frees; non-zero on failure, with the reason
/// in `error`.
int strata_png_encode_fast(const uint8_t *premultiplied, uint32_t width, uint32_t height, size_t stride,
                           int omit_opaque_alpha, int level, int filter,
                           uint8_t **out_data, size_t *out_size,
                           char *error, size_t error_size);

/// A PNG file read a band of rows at a time, as RGBA (straight alpha).
typedef struct strata_png_reader strata_png_reader;

/// Opens `path` and reads its header; `*out_interlaced` tells whether rows can
/// only come out all together (Adam7), in which case read it whole instead.
/// The same checks as the decoder's are made (the size per side, chunks
/// against the file's length, the declared image against the data), except the
/// pixel count: rows stream, a band at a time.
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
