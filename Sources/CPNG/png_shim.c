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
                      int compression_level,
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
    png_set_IHDR(png, info, width, height, 8, PNG_COLOR_TYPE_RGB_ALPHA, PNG_INTERLACE_NONE,
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
