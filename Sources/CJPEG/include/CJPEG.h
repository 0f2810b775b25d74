#ifndef STRATA_CJPEG_H
#define STRATA_CJPEG_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Decodes a baseline or progressive JPEG (grey, YCbCr/RGB or Adobe CMYK) held in
/// memory into RGBA, 8 bits a channel, alpha 255, rows packed (stride = width * 4).
///
/// Returns 0 on success, with `*out_pixels` a malloc'ed buffer the caller frees;
/// non-zero on failure, with a NUL-terminated reason in `error`. libjpeg's
/// warnings about missing or damaged image data (truncation, corrupt entropy
/// codes) count as failures, so a damaged file is refused rather than decoded
/// into grey. Images larger than the limits, or than the file's data could
/// encode, are refused before any pixel buffer is allocated; libjpeg's own
/// working memory is capped at 512 MiB.
int strata_jpeg_decode(const uint8_t *data, size_t size,
                       uint32_t max_dimension, uint64_t max_pixels,
                       uint8_t **out_pixels, uint32_t *out_width, uint32_t *out_height,
                       char *error, size_t error_size);

/// Encodes RGB rows (3 bytes a pixel) as a baseline JPEG at `quality` 1...100.
/// Returns 0 on success, with `*out_data` a malloc'ed buffer of `*out_size` bytes.
int strata_jpeg_encode(const uint8_t *rgb, uint32_t width, uint32_t height, size_t stride, int quality,
                       uint8_t **out_data, size_t *out_size, char *error, size_t error_size);

#ifdef __cplusplus
}
#endif

#endif
