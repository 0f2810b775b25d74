#ifndef STRATA_CJPEG_H
#define STRATA_CJPEG_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// A JPEG held in memory, decoded in two steps so that the caller can allocate
/// the pixels itself (into the image's own storage, with no copy) once it
/// knows the size.
typedef struct strata_jpeg_decoder strata_jpeg_decoder;

/// Reads the header of a baseline or progressive JPEG (grey, YCbCr/RGB or
/// Adobe CMYK). Images larger than the limits, or than the file's data could
/// encode, are refused before anything large is allocated. Returns NULL with a
/// NUL-terminated reason in `error` on failure.
strata_jpeg_decoder *strata_jpeg_decoder_open(const uint8_t *data, size_t size,
                                              uint32_t max_dimension, uint64_t max_pixels,
                                              uint32_t *out_width, uint32_t *out_height,
                                              char *error, size_t error_size);

/// Decodes the image into RGBA, 8 bits a channel, alpha 255, rows `stride`
/// bytes apart. libjpeg's warnings about missing or damaged image data
/// (truncation, corrupt entropy codes) count as failures, so a damaged file is
/// refused rather than decoded into grey; a file of more than 256 scans is
/// refused as hostile (each scan is a pass over the whole image); libjpeg's own
/// working memory is capped at 512 MiB. Returns 0, or non-zero with a reason
/// in `error` (the decoder is then only good for closing).
int strata_jpeg_decoder_read(strata_jpeg_decoder *decoder, uint8_t *rgba, size_t stride,
                             char *error, size_t error_size);

void strata_jpeg_decoder_close(strata_jpeg_decoder *decoder);

/// Encodes RGB rows (3 bytes a pixel) as a baseline JPEG at `quality` 1...100.
/// Returns 0 on success, with `*out_data` a malloc'ed buffer of `*out_size` bytes.
int strata_jpeg_encode(const uint8_t *rgb, uint32_t width, uint32_t height, size_t stride, int quality,
                       uint8_t **out_data, size_t *out_size, char *error, size_t error_size);

/// A JPEG file read a band of rows at a time (for images too large to hold whole).
typedef struct strata_jpeg_reader strata_jpeg_reader;

/// Opens `path` and reads its header. Returns NULL with a reason in `error` when
/// the file cannot be read or is not a JPEG, or when it is progressive and its
/// coefficients would need more than `max_memory` bytes (baseline files need
/// only a few rows' worth, whatever their size), or when the file is too short
/// to hold the image it declares. The decoder's scan limit applies.
strata_jpeg_reader *strata_jpeg_reader_open(const char *path, uint64_t max_memory,
                                            uint32_t *out_width, uint32_t *out_height,
                                            char *error, size_t error_size);

/// Reads up to `rows` rows as RGB (3 bytes a pixel), `stride` bytes apart.
/// Returns the rows read (0 at the end), or -1 with a reason in `error`
/// (truncated or corrupt data); the reader is then only good for closing.
int strata_jpeg_reader_read(strata_jpeg_reader *reader, uint8_t *rgb, size_t stride, uint32_t rows,
                            char *error, size_t error_size);

void strata_jpeg_reader_close(strata_jpeg_reader *reader);

#ifdef __cplusplus
}
#endif

#endif
