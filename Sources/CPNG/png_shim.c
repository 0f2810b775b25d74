// Every call into libpng happens in this file. libpng reports errors by
// longjmp'ing to the setjmp in the function that called it; keeping those calls
// here means no Swift frame is ever unwound by longjmp.
#include "CPNG.h"

#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

typedef struct {
    const uint8_t *data;
    size_t size;
    size_t position;
    char *error;
    size_t error_size;
} read_context;

typedef struct {
    uint8_t *data;
    size_t size;
    size_t capacity;
    int failed;
    char *error;
    size_t error_size;
} write_context;

static void copy_message(char *error, size_t error_size, const char *message) {
    if (error == NULL || error_size == 0) return;
    snprintf(error, error_size, "%s", message ? message : "unknown libpng error");
}

static void on_read_error(png_structp png, png_const_charp message) {
    read_context *context = (read_context *)png_get_error_ptr(png);
    copy_message(context->error, context->error_size, message);
    png_longjmp(png, 1);
}

static void on_write_error(png_structp png, png_const_charp message) {
    write_context *context = (write_context *)png_get_error_ptr(png);
    copy_message(context->error, context->error_size, message);
    png_longjmp(png, 1);
}

static void on_warning(png_structp png, png_const_charp message) {
    (void)png;
    (void)message;
}

static void read_from_memory(png_structp png, png_bytep out, png_size_t length) {
    read_context *context = (read_context *)png_get_io_ptr(png);
    if (length > context->size - context->position) {
        png_error(png, "truncated: the file ends before its image data does");
    }
    memcpy(out, context->data + context->position, length);
    context->position += length;
}

static void write_to_memory(png_structp png, png_bytep bytes, png_size_t length) {
    write_context *context = (write_context *)png_get_io_ptr(png);
    if (context->size + length > context->capacity) {
        size_t capacity = context->capacity ? context->capacity : 65536;
        while (capacity < context->size + length) capacity *= 2;
        uint8_t *grown = (uint8_t *)realloc(context->data, capacity);
        if (grown == NULL) png_error(png, "out of memory while encoding");
        context->data = grown;
        context->capacity = capacity;
    }
    memcpy(context->data + context->size, bytes, length);
    context->size += length;
}

static void flush_nothing(png_structp png) { (void)png; }

// Ancillary chunks (text, ICC profiles, …) libpng may hold in memory, each and
// once decompressed: a header declaring gigabytes is refused at this size.
// Debian's libpng already defaults to these values; set here because other
// builds leave them unlimited.
#define STRATA_PNG_CHUNK_MAX 8000000u

/// Limits every reader sets: the size per side, the memory of one ancillary
/// chunk and how many such chunks are kept.
static void set_limits(png_structp png, uint32_t max_dimension) {
    png_set_user_limits(png, max_dimension, max_dimension);
    png_set_chunk_malloc_max(png, STRATA_PNG_CHUNK_MAX);
    png_set_chunk_cache_max(png, 1000);
}

/// The size in the IHDR chunk against the limits, before libpng reads further,
/// so that an absurd header is refused with a clear reason. `chunk` is the 16
/// bytes after the signature: length, type, width, height. `max_pixels` is
/// UINT64_MAX where only the sides are limited. Returns 0, or 1 with a reason.
static int check_ihdr(const uint8_t *chunk, uint32_t max_dimension, uint64_t max_pixels,
                      char *error, size_t error_size) {
    if (memcmp(chunk + 4, "IHDR", 4) != 0) return 0;
    uint32_t w = (uint32_t)chunk[8] << 24 | (uint32_t)chunk[9] << 16 | (uint32_t)chunk[10] << 8 | chunk[11];
    uint32_t h = (uint32_t)chunk[12] << 24 | (uint32_t)chunk[13] << 16 | (uint32_t)chunk[14] << 8 | chunk[15];
    if (w <= max_dimension && h <= max_dimension && (uint64_t)w * h <= max_pixels) return 0;
    char message[200];
    if (max_pixels == UINT64_MAX) {
        snprintf(message, sizeof message, "image too large: %u x %u (width x height) exceeds the limit of %u pixels a side",
                 w, h, max_dimension);
    } else {
        snprintf(message, sizeof message,
                 "image too large: %u x %u (width x height) exceeds the limit of %u pixels a side and %llu in all",
                 w, h, max_dimension, (unsigned long long)max_pixels);
    }
    copy_message(error, error_size, message);
    return 1;
}

/// Walks the chunk headers after the signature: every chunk must fit in the
/// `size` bytes there are, so no chunk's declared length (up to 2 GB) is ever
/// believed beyond the data. `read_at(context, offset, out8)` reads 8 bytes at
/// an offset, returning 0 when it cannot. Returns 0, or 1 with a reason.
static int check_chunks(uint64_t size, int (*read_at)(void *, uint64_t, uint8_t *), void *context,
                        char *error, size_t error_size) {
    uint64_t position = 8;
    while (position + 12 <= size) {
        uint8_t header[8];
        if (!read_at(context, position, header)) break;
        uint32_t length = (uint32_t)header[0] << 24 | (uint32_t)header[1] << 16 | (uint32_t)header[2] << 8 | header[3];
        if (length > 0x7fffffffu) {
            copy_message(error, error_size, "damaged: a chunk declares a length over 2^31 - 1 bytes");
            return 1;
        }
        if (position + 12 + length > size) {
            char message[200];
            snprintf(message, sizeof message,
                     "truncated: the %.4s chunk declares %u bytes, but only %llu remain in the file",
                     (const char *)header + 4, length, (unsigned long long)(size - position - 12 > size ? 0 : size - position - 12));
            copy_message(error, error_size, message);
            return 1;
        }
        position += 12 + (uint64_t)length;
        if (memcmp(header + 4, "IEND", 4) == 0) break;
    }
    return 0;
}

static int read_memory_at(void *context, uint64_t offset, uint8_t *out) {
    const read_context *c = (const read_context *)context;
    if (offset + 8 > c->size) return 0;
    memcpy(out, c->data + offset, 8);
    return 1;
}

static int read_file_at(void *context, uint64_t offset, uint8_t *out) {
    FILE *f = (FILE *)context;
    if (fseeko(f, (off_t)offset, SEEK_SET) != 0) return 0;
    return fread(out, 1, 8, f) == 8;
}

/// The IHDR size against the limits, and the raw image data it declares against
/// the bytes there are (deflate cannot compress better than about 1032 : 1, so a
/// file whose declared image needs more raw bytes than that is truncated or
/// lying). Called before anything is allocated for pixels.
static void check_size(png_structp png, png_infop info, uint64_t file_size, uint64_t max_pixels) {
    png_uint_32 width = png_get_image_width(png, info), height = png_get_image_height(png, info);
    if ((uint64_t)width * (uint64_t)height > max_pixels) {
        png_error(png, "image too large: its pixel count exceeds the decoder's limit");
    }
    uint64_t raw_bytes = (uint64_t)height * ((uint64_t)png_get_rowbytes(png, info) + 1);
    if (raw_bytes > file_size * 1040 + 4096) {
        png_error(png, "truncated: the file is too short to hold the image it declares");
    }
}

/// Asks libpng for 8-bit straight RGBA rows, whatever the file holds.
static void request_rgba(png_structp png, png_infop info) {
    png_uint_32 width = png_get_image_width(png, info);
    int bit_depth = png_get_bit_depth(png, info), color_type = png_get_color_type(png, info);
    png_set_expand(png);
    if (bit_depth == 16) png_set_scale_16(png);
    if (color_type == PNG_COLOR_TYPE_GRAY || color_type == PNG_COLOR_TYPE_GRAY_ALPHA) png_set_gray_to_rgb(png);
    if (!(color_type & PNG_COLOR_MASK_ALPHA) && !png_get_valid(png, info, PNG_INFO_tRNS)) {
        png_set_filler(png, 0xFF, PNG_FILLER_AFTER);
    }
    png_set_interlace_handling(png);
    png_read_update_info(png, info);
    if (png_get_rowbytes(png, info) != (size_t)width * 4) {
        png_error(png, "unsupported pixel layout after conversion to RGBA");
    }
}

struct strata_png_decoder {
    png_structp png;
    png_infop info;
    read_context context;
};

void strata_png_decoder_close(strata_png_decoder *decoder) {
    if (decoder == NULL) return;
    if (decoder->png) png_destroy_read_struct(&decoder->png, decoder->info ? &decoder->info : NULL, NULL);
    free(decoder);
}

strata_png_decoder *strata_png_decoder_open(const uint8_t *data, size_t size,
                                            uint32_t max_dimension, uint64_t max_pixels,
                                            uint32_t *out_width, uint32_t *out_height,
                                            char *error, size_t error_size) {
    *out_width = 0;
    *out_height = 0;
    if (size < 8 || png_sig_cmp(data, 0, 8) != 0) {
        copy_message(error, error_size, "not a PNG file: the 8-byte PNG signature is missing");
        return NULL;
    }
    if (size >= 24 && check_ihdr(data + 8, max_dimension, max_pixels, error, error_size)) return NULL;
    strata_png_decoder *decoder = (strata_png_decoder *)calloc(1, sizeof(strata_png_decoder));
    if (decoder == NULL) {
        copy_message(error, error_size, "out of memory");
        return NULL;
    }
    decoder->context = (read_context){data, size, 0, error, error_size};
    if (check_chunks(size, read_memory_at, &decoder->context, error, error_size)) {
        free(decoder);
        return NULL;
    }
    decoder->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &decoder->context, on_read_error, on_warning);
    if (decoder->png == NULL) {
        strata_png_decoder_close(decoder);
        copy_message(error, error_size, "libpng could not create a read structure");
        return NULL;
    }
    decoder->info = png_create_info_struct(decoder->png);
    if (decoder->info == NULL) {
        strata_png_decoder_close(decoder);
        copy_message(error, error_size, "libpng could not create an info structure");
        return NULL;
    }
    if (setjmp(png_jmpbuf(decoder->png))) {
        strata_png_decoder_close(decoder);
        return NULL;
    }
    png_set_read_fn(decoder->png, &decoder->context, read_from_memory);
    set_limits(decoder->png, max_dimension);
    png_read_info(decoder->png, decoder->info);
    check_size(decoder->png, decoder->info, size, max_pixels);
    request_rgba(decoder->png, decoder->info);
    *out_width = png_get_image_width(decoder->png, decoder->info);
    *out_height = png_get_image_height(decoder->png, decoder->info);
    return decoder;
}

int strata_png_decoder_read(strata_png_decoder *decoder, uint8_t *rgba, size_t stride,
                            char *error, size_t error_size) {
    decoder->context.error = error;
    decoder->context.error_size = error_size;
    png_uint_32 height = png_get_image_height(decoder->png, decoder->info);
    // Written after setjmp and read after a longjmp: volatile keeps it in memory.
    png_bytep *volatile rows = (png_bytep *)malloc(sizeof(png_bytep) * (height ? height : 1));
    if (rows == NULL) {
        copy_message(error, error_size, "out of memory while decoding");
        return 1;
    }
    if (setjmp(png_jmpbuf(decoder->png))) {
        free(rows);
        return 1;
    }
    for (png_uint_32 y = 0; y < height; y++) rows[y] = rgba + (size_t)y * stride;
    png_read_image(decoder->png, rows);
    free(rows);
    return 0;
}

int strata_png_encode(const uint8_t *rgba, uint32_t width, uint32_t height, size_t stride,
                      int channels, int compression_level, int strategy, int filters,
                      uint8_t **out_data, size_t *out_size,
                      char *error, size_t error_size) {
    *out_data = NULL;
    *out_size = 0;
    if (width == 0 || height == 0) {
        copy_message(error, error_size, "cannot encode an empty image");
        return 1;
    }
    write_context context = {NULL, 0, 0, 0, error, error_size};
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &context, on_write_error, on_warning);
    if (png == NULL) {
        copy_message(error, error_size, "libpng could not create a write structure");
        return 1;
    }
    png_infop info = png_create_info_struct(png);
    if (info == NULL) {
        png_destroy_write_struct(&png, NULL);
        copy_message(error, error_size, "libpng could not create an info structure");
        return 1;
    }
    if (setjmp(png_jmpbuf(png))) {
        free(context.data);
        png_destroy_write_struct(&png, &info);
        return 1;
    }
    png_set_write_fn(png, &context, write_to_memory, flush_nothing);
    png_set_compression_level(png, compression_level);
    png_set_compression_strategy(png, strategy);
    png_set_filter(png, PNG_FILTER_TYPE_BASE, filters);
    png_set_IHDR(png, info, width, height, 8, channels == 3 ? PNG_COLOR_TYPE_RGB : PNG_COLOR_TYPE_RGB_ALPHA,
                 PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    for (uint32_t y = 0; y < height; y++) {
        png_write_row(png, (png_const_bytep)(rgba + (size_t)y * stride));
    }
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    *out_data = context.data;
    *out_size = context.size;
    return 0;
}

// MARK: Streaming

typedef struct {
    char *error;
    size_t error_size;
} stream_context;

static void on_stream_error(png_structp png, png_const_charp message) {
    stream_context *context = (stream_context *)png_get_error_ptr(png);
    copy_message(context->error, context->error_size, message);
    png_longjmp(png, 1);
}

struct strata_png_reader {
    png_structp png;
    png_infop info;
    FILE *file;
    stream_context context;
    uint32_t height;
    uint32_t row;
};

void strata_png_reader_close(strata_png_reader *reader) {
    if (reader == NULL) return;
    if (reader->png) png_destroy_read_struct(&reader->png, reader->info ? &reader->info : NULL, NULL);
    if (reader->file) fclose(reader->file);
    free(reader);
}

strata_png_reader *strata_png_reader_open(const char *path, uint32_t max_dimension,
                                          uint32_t *out_width, uint32_t *out_height, int *out_interlaced,
                                          char *error, size_t error_size) {
    *out_width = 0;
    *out_height = 0;
    *out_interlaced = 0;
    FILE *file = fopen(path, "rb");
    if (file == NULL) {
        copy_message(error, error_size, "cannot open the file for reading");
        return NULL;
    }
    unsigned char signature[8];
    if (fread(signature, 1, 8, file) != 8 || png_sig_cmp(signature, 0, 8) != 0) {
        fclose(file);
        copy_message(error, error_size, "not a PNG file: the signature is missing");
        return NULL;
    }
    strata_png_reader *reader = (strata_png_reader *)calloc(1, sizeof(strata_png_reader));
    if (reader == NULL) {
        fclose(file);
        copy_message(error, error_size, "out of memory");
        return NULL;
    }
    reader->file = file;
    reader->context.error = error;
    reader->context.error_size = error_size;
    reader->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &reader->context, on_stream_error, on_warning);
    if (reader->png == NULL) {
        strata_png_reader_close(reader);
        copy_message(error, error_size, "libpng could not create a read structure");
        return NULL;
    }
    reader->info = png_create_info_struct(reader->png);
    if (reader->info == NULL) {
        strata_png_reader_close(reader);
        copy_message(error, error_size, "libpng could not create an info structure");
        return NULL;
    }
    if (setjmp(png_jmpbuf(reader->png))) {
        strata_png_reader_close(reader);
        return NULL;
    }
    // The declared size first (only its sides: rows stream, a band at a time).
    unsigned char header[16];
    if (fread(header, 1, 16, file) == 16 && check_ihdr(header, max_dimension, UINT64_MAX, error, error_size)) {
        strata_png_reader_close(reader);
        return NULL;
    }
    // The chunks against the file's length, then back to just after the signature.
    struct stat status;
    if (fstat(fileno(file), &status) != 0 || check_chunks((uint64_t)status.st_size, read_file_at, file, error, error_size)
        || fseeko(file, 8, SEEK_SET) != 0) {
        if (error && error[0] == 0) copy_message(error, error_size, "cannot read the file");
        strata_png_reader_close(reader);
        return NULL;
    }
    png_init_io(reader->png, file);
    png_set_sig_bytes(reader->png, 8);
    set_limits(reader->png, max_dimension);
    png_read_info(reader->png, reader->info);
    png_uint_32 width = 0, height = 0;
    int bit_depth = 0, color_type = 0, interlace = 0;
    png_get_IHDR(reader->png, reader->info, &width, &height, &bit_depth, &color_type, &interlace, NULL, NULL);
    // No limit on the pixel count: rows stream, a band at a time.
    check_size(reader->png, reader->info, (uint64_t)status.st_size, UINT64_MAX);
    if (interlace == PNG_INTERLACE_NONE) {
        request_rgba(reader->png, reader->info);
    }
    reader->height = height;
    *out_width = width;
    *out_height = height;
    *out_interlaced = interlace != PNG_INTERLACE_NONE;
    return reader;
}

int strata_png_reader_read(strata_png_reader *reader, uint8_t *rgba, size_t stride, uint32_t rows,
                           char *error, size_t error_size) {
    reader->context.error = error;
    reader->context.error_size = error_size;
    if (setjmp(png_jmpbuf(reader->png))) return -1;
    uint32_t done = 0;
    while (done < rows && reader->row < reader->height) {
        png_read_row(reader->png, rgba + (size_t)done * stride, NULL);
        reader->row++;
        done++;
    }
    return (int)done;
}

// MARK: Fast encoding with ISA-L

#include <isa-l/igzip_lib.h>
#include <isa-l/crc.h>

static void put32(uint8_t *p, uint32_t v) {
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

/// Writes a chunk's length, type and CRC around `length` bytes of data
/// already at `chunk + 8`; returns the chunk's whole size.
static size_t seal_chunk(uint8_t *chunk, const char *type, uint32_t length) {
    put32(chunk, length);
    memcpy(chunk + 4, type, 4);
    put32(chunk + 8 + length, crc32_gzip_refl(0, chunk + 4, (uint64_t)length + 4));
    return (size_t)length + 12;
}

/// One row of premultiplied RGBA as straight RGB (`channels` 3, alpha
/// dropped) or RGBA (colours divided by alpha, rounded).
static void straight_row(const uint8_t *src, uint8_t *dst, uint32_t width, int channels) {
    if (channels == 3) {
        for (uint32_t x = 0; x < width; x++) {
            dst[0] = src[0];
            dst[1] = src[1];
            dst[2] = src[2];
            src += 4;
            dst += 3;
        }
        return;
    }
    for (uint32_t x = 0; x < width; x++) {
        uint32_t a = src[3];
        if (a == 255) {
            memcpy(dst, src, 4);
        } else if (a == 0) {
            memset(dst, 0, 4);
        } else {
            for (int c = 0; c < 3; c++) {
                uint32_t v = ((uint32_t)src[c] * 255 + a / 2) / a;
                dst[c] = (uint8_t)(v > 255 ? 255 : v);
            }
            dst[3] = (uint8_t)a;
        }
        src += 4;
        dst += 4;
    }
}

int strata_png_encode_fast(const uint8_t *premultiplied, uint32_t width, uint32_t height, size_t stride,
                           int omit_opaque_alpha, int level, int filter,
                           uint8_t **out_data, size_t *out_size,
                           char *error, size_t error_size) {
    *out_data = NULL;
    *out_size = 0;
    if (width == 0 || height == 0 || (uint64_t)width * 4 * height > 0xf0000000u) {
        copy_message(error, error_size, "cannot encode an empty or oversized image");
        return 1;
    }
    int opaque = omit_opaque_alpha;
    for (uint32_t y = 0; opaque && y < height; y++) {
        const uint8_t *row = premultiplied + (size_t)y * stride;
        uint8_t all = 255;
        for (uint32_t x = 0; x < width; x++) all &= row[4 * (size_t)x + 3];
        opaque = all == 255;
    }
    int channels = opaque ? 3 : 4;
    size_t row_bytes = (size_t)width * (size_t)channels;
    size_t raw_size = (row_bytes + 1) * height;
    uint8_t *raw = malloc(raw_size);
    uint8_t *rows = malloc(2 * row_bytes);
    // igzip's levels 0 to 3; level 1's hash buffer is the default size.
    int isal_level = level < 0 ? 0 : (level > 3 ? 3 : level);
    uint32_t level_size = isal_level == 0 ? ISAL_DEF_LVL0_DEFAULT
                        : isal_level == 1 ? ISAL_DEF_LVL1_DEFAULT
                        : isal_level == 2 ? ISAL_DEF_LVL2_DEFAULT : ISAL_DEF_LVL3_DEFAULT;
    uint8_t *level_buffer = malloc(level_size);
    if (raw == NULL || rows == NULL || level_buffer == NULL) {
        free(raw);
        free(rows);
        free(level_buffer);
        copy_message(error, error_size, "not enough memory to encode the image");
        return 1;
    }
    // Filter each row against the one above (Up) or to its left (Sub), or not at all.
    uint8_t *current = rows, *previous = rows + row_bytes;
    memset(previous, 0, row_bytes);
    for (uint32_t y = 0; y < height; y++) {
        straight_row(premultiplied + (size_t)y * stride, current, width, channels);
        uint8_t *o = raw + (size_t)y * (row_bytes + 1);
        o[0] = (uint8_t)filter;
        if (filter == 2) {
            for (size_t i = 0; i < row_bytes; i++) o[1 + i] = (uint8_t)(current[i] - previous[i]);
        } else if (filter == 1) {
            memcpy(o + 1, current, (size_t)channels);
            for (size_t i = (size_t)channels; i < row_bytes; i++) o[1 + i] = (uint8_t)(current[i] - current[i - channels]);
        } else {
            memcpy(o + 1, current, row_bytes);
        }
        uint8_t *t = current;
        current = previous;
        previous = t;
    }
    free(rows);
    // Stored blocks at worst: 5 bytes a 65,535, plus the zlib header and checksum.
    size_t bound = raw_size + raw_size / 16000 + 64;
    size_t capacity = 8 + 25 + 12 + bound + 12;
    uint8_t *png = malloc(capacity);
    if (png == NULL || bound > 0xffffffffu) {
        free(png);
        free(raw);
        free(level_buffer);
        copy_message(error, error_size, "not enough memory to encode the image");
        return 1;
    }
    static const uint8_t signature[8] = {137, 80, 78, 71, 13, 10, 26, 10};
    memcpy(png, signature, 8);
    size_t at = 8;
    uint8_t *ihdr = png + at;
    put32(ihdr + 8, width);
    put32(ihdr + 12, height);
    ihdr[16] = 8;                        // bits per channel
    ihdr[17] = channels == 3 ? 2 : 6;    // RGB or RGBA
    ihdr[18] = 0;                        // deflate
    ihdr[19] = 0;                        // adaptive filtering (one type per row)
    ihdr[20] = 0;                        // not interlaced
    at += seal_chunk(ihdr, "IHDR", 13);
    uint8_t *idat = png + at;
    struct isal_zstream stream;
    isal_deflate_stateless_init(&stream);
    stream.level = (uint32_t)isal_level;
    stream.level_buf = level_buffer;
    stream.level_buf_size = level_size;
    stream.gzip_flag = IGZIP_ZLIB;
    stream.end_of_stream = 1;
    stream.flush = NO_FLUSH;
    stream.next_in = raw;
    stream.avail_in = (uint32_t)raw_size;
    stream.next_out = idat + 8;
    stream.avail_out = (uint32_t)bound;
    int status = isal_deflate_stateless(&stream);
    size_t compressed = stream.total_out;
    free(level_buffer);
    free(raw);
    if (status != COMP_OK || stream.avail_in != 0 || compressed > 0x7fffffffu) {
        free(png);
        copy_message(error, error_size, "ISA-L could not compress the image");
        return 1;
    }
    at += seal_chunk(idat, "IDAT", (uint32_t)compressed);
    at += seal_chunk(png + at, "IEND", 0);
    *out_data = png;
    *out_size = at;
    return 0;
}
