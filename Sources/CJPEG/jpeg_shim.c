// Every libjpeg call happens here: libjpeg reports fatal errors through
// error_exit, which this file turns into a longjmp back to the function that
// called libjpeg, so no Swift frame is ever unwound.
#include "CJPEG.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <jpeglib.h>
#include <jerror.h>

typedef struct {
    struct jpeg_error_mgr base;
    jmp_buf jump;
    char *error;
    size_t error_size;
} error_manager;

static void copy_message(char *error, size_t error_size, const char *message) {
    if (error == NULL || error_size == 0) return;
    snprintf(error, error_size, "%s", message);
}

static void on_error_exit(j_common_ptr info) {
    error_manager *manager = (error_manager *)info->err;
    char message[JMSG_LENGTH_MAX];
    manager->base.format_message(info, message);
    copy_message(manager->error, manager->error_size, message);
    longjmp(manager->jump, 1);
}

static void on_message(j_common_ptr info, int level) {
    // Warnings (level −1) that mean image data is missing or damaged — the file
    // ends early, a marker interrupts the data, a code is not in the table —
    // refuse the file instead of decoding grey blocks. Harmless ones (extra bytes
    // before a marker, an unknown JFIF version) and trace messages are ignored.
    if (level >= 0) return;
    switch (info->err->msg_code) {
    case JWRN_JPEG_EOF:
    case JWRN_HIT_MARKER:
    case JWRN_HUFF_BAD_CODE:
    case JWRN_MUST_RESYNC:
    case JWRN_ARITH_BAD_CODE:
        on_error_exit(info);
        break;
    default:
        break;
    }
}

// One row of CMYK to RGB (`channels` 3) or opaque RGBA (4). Adobe writes CMYK
// inverted (each value already 255 − ink); others do not.
static void cmyk_to_rgb(const uint8_t *cmyk, int inverted, uint8_t *out, int channels, uint32_t width) {
    for (uint32_t x = 0; x < width; x++) {
        unsigned c = cmyk[x * 4], m = cmyk[x * 4 + 1], y = cmyk[x * 4 + 2], k = cmyk[x * 4 + 3];
        if (!inverted) { c = 255 - c; m = 255 - m; y = 255 - y; k = 255 - k; }
        uint8_t *p = out + (size_t)x * channels;
        p[0] = (uint8_t)((c * k + 127) / 255);
        p[1] = (uint8_t)((m * k + 127) / 255);
        p[2] = (uint8_t)((y * k + 127) / 255);
        if (channels == 4) p[3] = 255;
    }
}

// The most scans a file may have. Ordinary progressive files have about ten
// (a few dozen from optimisers); each scan costs a pass over the whole image,
// so a file repeating one scan tens of thousands of times would run for
// minutes. libjpeg-turbo's advice for untrusted input is such a limit.
#define STRATA_JPEG_MAX_SCANS 256

typedef struct {
    struct jpeg_progress_mgr base;
    int max_scans;
} scan_limit;

static void on_progress(j_common_ptr info) {
    if (!info->is_decompressor) return;
    j_decompress_ptr d = (j_decompress_ptr)info;
    scan_limit *limit = (scan_limit *)info->progress;
    if (d->input_scan_number > limit->max_scans) {
        error_manager *manager = (error_manager *)info->err;
        char message[160];
        snprintf(message, sizeof message, "damaged or hostile: the JPEG has more than %d scans", limit->max_scans);
        copy_message(manager->error, manager->error_size, message);
        longjmp(manager->jump, 1);
    }
}

/// Routes libjpeg's errors and damage warnings through `manager` (a longjmp to
/// its jump buffer, with the reason in `error`), before jpeg_create_decompress.
static void set_errors(j_decompress_ptr info, error_manager *manager, char *error, size_t error_size) {
    info->err = jpeg_std_error(&manager->base);
    manager->base.error_exit = on_error_exit;
    manager->base.emit_message = on_message;
    manager->error = error;
    manager->error_size = error_size;
}

/// Installs the scan limit, after jpeg_create_decompress (which clears
/// `progress`).
static void limit_scans(j_decompress_ptr info, scan_limit *limit) {
    limit->base.progress_monitor = on_progress;
    limit->max_scans = STRATA_JPEG_MAX_SCANS;
    info->progress = &limit->base;
}

/// The checks both readers make after the header: a non-empty size, and
/// enough data for it. Even arithmetic coding spends some bits on each 8 x 8
/// block; allowing an eighth of a bit a block, a file this short cannot hold
/// the image it declares.
static void check_header(j_decompress_ptr info, uint64_t file_size) {
    error_manager *manager = (error_manager *)info->err;
    uint32_t width = info->image_width, height = info->image_height;
    if (width == 0 || height == 0) {
        copy_message(manager->error, manager->error_size, "the JPEG declares an empty image");
        longjmp(manager->jump, 1);
    }
    uint64_t blocks = ((uint64_t)(width + 7) / 8) * ((height + 7) / 8);
    if (blocks > file_size * 64 + 64) {
        copy_message(manager->error, manager->error_size, "truncated: the file is too short to hold the image it declares");
        longjmp(manager->jump, 1);
    }
}

struct strata_jpeg_decoder {
    struct jpeg_decompress_struct info;
    error_manager manager;
    scan_limit progress;
    int cmyk;
    int inverted;
    int started;
};

void strata_jpeg_decoder_close(strata_jpeg_decoder *decoder) {
    if (decoder == NULL) return;
    if (decoder->started) jpeg_destroy_decompress(&decoder->info);
    free(decoder);
}

strata_jpeg_decoder *strata_jpeg_decoder_open(const uint8_t *data, size_t size,
                                              uint32_t max_dimension, uint64_t max_pixels,
                                              uint32_t *out_width, uint32_t *out_height,
                                              char *error, size_t error_size) {
    *out_width = 0;
    *out_height = 0;
    if (size < 3 || data[0] != 0xFF || data[1] != 0xD8 || data[2] != 0xFF) {
        copy_message(error, error_size, "not a JPEG file: the start-of-image marker is missing");
        return NULL;
    }
    strata_jpeg_decoder *decoder = (strata_jpeg_decoder *)calloc(1, sizeof(strata_jpeg_decoder));
    if (decoder == NULL) {
        copy_message(error, error_size, "out of memory");
        return NULL;
    }
    set_errors(&decoder->info, &decoder->manager, error, error_size);
    if (setjmp(decoder->manager.jump)) {
        strata_jpeg_decoder_close(decoder);
        return NULL;
    }
    jpeg_create_decompress(&decoder->info);
    decoder->started = 1;
    limit_scans(&decoder->info, &decoder->progress);
    jpeg_mem_src(&decoder->info, data, (unsigned long)size);
    jpeg_read_header(&decoder->info, TRUE);
    uint32_t width = decoder->info.image_width, height = decoder->info.image_height;
    if (width > max_dimension || height > max_dimension || (uint64_t)width * height > max_pixels) {
        snprintf(error, error_size, "image too large: %u x %u exceeds the decoder's limit of %u pixels a side and %llu in all",
                 width, height, max_dimension, (unsigned long long)max_pixels);
        longjmp(decoder->manager.jump, 1);
    }
    check_header(&decoder->info, size);
    // Progressive files keep every coefficient in memory: bound what libjpeg may
    // take (it then fails with a message instead of exhausting the machine).
    decoder->info.mem->max_memory_to_use = 512L * 1024 * 1024;
    decoder->cmyk = decoder->info.jpeg_color_space == JCS_CMYK || decoder->info.jpeg_color_space == JCS_YCCK;
    decoder->inverted = decoder->info.saw_Adobe_marker;
    decoder->info.out_color_space = decoder->cmyk ? JCS_CMYK : JCS_EXT_RGBA;
    *out_width = width;
    *out_height = height;
    return decoder;
}

int strata_jpeg_decoder_read(strata_jpeg_decoder *decoder, uint8_t *rgba, size_t stride,
                             char *error, size_t error_size) {
    decoder->manager.error = error;
    decoder->manager.error_size = error_size;
    // CMYK rows are converted in place: 4 bytes a pixel either way.
    if (setjmp(decoder->manager.jump)) return 1;
    jpeg_start_decompress(&decoder->info);
    uint32_t width = decoder->info.output_width, height = decoder->info.output_height;
    while (decoder->info.output_scanline < height) {
        uint8_t *row = rgba + (size_t)decoder->info.output_scanline * stride;
        JSAMPROW target = row;
        if (jpeg_read_scanlines(&decoder->info, &target, 1) != 1) {
            copy_message(error, error_size, "the JPEG data ended early");
            return 1;
        }
        if (decoder->cmyk) cmyk_to_rgb(row, decoder->inverted, row, 4, width);
    }
    jpeg_finish_decompress(&decoder->info);
    return 0;
}

int strata_jpeg_encode(const uint8_t *rgb, uint32_t width, uint32_t height, size_t stride, int quality,
                       uint8_t **out_data, size_t *out_size, char *error, size_t error_size) {
    *out_data = NULL;
    *out_size = 0;
    if (width == 0 || height == 0 || width > 65500 || height > 65500) {
        copy_message(error, error_size, "JPEG holds images from 1 x 1 to 65500 x 65500 pixels");
        return 1;
    }
    struct jpeg_compress_struct info;
    error_manager manager;
    info.err = jpeg_std_error(&manager.base);
    manager.base.error_exit = on_error_exit;
    manager.error = error;
    manager.error_size = error_size;
    unsigned char *volatile buffer = NULL;
    unsigned long volatile length = 0;
    if (setjmp(manager.jump)) {
        jpeg_destroy_compress(&info);
        free(buffer);
        return 1;
    }
    jpeg_create_compress(&info);
    jpeg_mem_dest(&info, (unsigned char **)&buffer, (unsigned long *)&length);
    info.image_width = width;
    info.image_height = height;
    info.input_components = 3;
    info.in_color_space = JCS_RGB;
    jpeg_set_defaults(&info);
    jpeg_set_quality(&info, quality < 1 ? 1 : (quality > 100 ? 100 : quality), TRUE);
    jpeg_start_compress(&info, TRUE);
    while (info.next_scanline < height) {
        JSAMPROW row = (JSAMPROW)(rgb + (size_t)info.next_scanline * stride);
        jpeg_write_scanlines(&info, &row, 1);
    }
    jpeg_finish_compress(&info);
    jpeg_destroy_compress(&info);
    *out_data = buffer;
    *out_size = length;
    return 0;
}

// MARK: Streaming

struct strata_jpeg_reader {
    struct jpeg_decompress_struct info;
    error_manager manager;
    scan_limit progress;
    FILE *file;
    int cmyk;
    int inverted;
    uint8_t *cmyk_row;
    int started;
};

strata_jpeg_reader *strata_jpeg_reader_open(const char *path, uint64_t max_memory,
                                            uint32_t *out_width, uint32_t *out_height,
                                            char *error, size_t error_size) {
    *out_width = 0;
    *out_height = 0;
    FILE *file = fopen(path, "rb");
    if (file == NULL) {
        snprintf(error, error_size, "cannot open the file for reading");
        return NULL;
    }
    unsigned char signature[3] = {0, 0, 0};
    if (fread(signature, 1, 3, file) != 3 || signature[0] != 0xFF || signature[1] != 0xD8 || signature[2] != 0xFF) {
        fclose(file);
        copy_message(error, error_size, "not a JPEG file: the start-of-image marker is missing");
        return NULL;
    }
    rewind(file);
    strata_jpeg_reader *reader = (strata_jpeg_reader *)calloc(1, sizeof(strata_jpeg_reader));
    if (reader == NULL) {
        fclose(file);
        copy_message(error, error_size, "out of memory");
        return NULL;
    }
    reader->file = file;
    set_errors(&reader->info, &reader->manager, error, error_size);
    if (setjmp(reader->manager.jump)) {
        strata_jpeg_reader_close(reader);
        return NULL;
    }
    jpeg_create_decompress(&reader->info);
    reader->started = 1;
    limit_scans(&reader->info, &reader->progress);
    jpeg_stdio_src(&reader->info, file);
    jpeg_read_header(&reader->info, TRUE);
    uint32_t width = reader->info.image_width, height = reader->info.image_height;
    struct stat status;
    if (fstat(fileno(file), &status) != 0) {
        copy_message(error, error_size, "cannot read the file's length");
        longjmp(reader->manager.jump, 1);
    }
    check_header(&reader->info, (uint64_t)status.st_size);
    // A progressive (or multi-scan) file is decoded whole, its coefficients
    // held in memory: about 2 bytes a sample. Refuse what would not fit.
    if (jpeg_has_multiple_scans(&reader->info)) {
        uint64_t samples = 0;
        for (int c = 0; c < reader->info.num_components; c++) {
            jpeg_component_info *comp = &reader->info.comp_info[c];
            samples += (uint64_t)comp->width_in_blocks * comp->height_in_blocks * 64;
        }
        if (samples * 2 > max_memory) {
            snprintf(error, error_size,
                     "a progressive JPEG of %u x %u needs about %llu MB to decode, more than the %llu MB allowed; "
                     "re-encode it as baseline, which is read a band at a time",
                     width, height, (unsigned long long)(samples * 2 >> 20), (unsigned long long)(max_memory >> 20));
            longjmp(reader->manager.jump, 1);
        }
    }
    reader->info.mem->max_memory_to_use = (long)(max_memory > 0x7fffffff ? 0x7fffffff : max_memory);
    reader->cmyk = reader->info.jpeg_color_space == JCS_CMYK || reader->info.jpeg_color_space == JCS_YCCK;
    reader->inverted = reader->info.saw_Adobe_marker;
    reader->info.out_color_space = reader->cmyk ? JCS_CMYK : JCS_RGB;
    jpeg_start_decompress(&reader->info);
    if (reader->cmyk) {
        reader->cmyk_row = (uint8_t *)malloc((size_t)width * 4);
        if (reader->cmyk_row == NULL) {
            copy_message(error, error_size, "out of memory while decoding");
            longjmp(reader->manager.jump, 1);
        }
    }
    *out_width = width;
    *out_height = height;
    return reader;
}

int strata_jpeg_reader_read(strata_jpeg_reader *reader, uint8_t *rgb, size_t stride, uint32_t rows,
                            char *error, size_t error_size) {
    reader->manager.error = error;
    reader->manager.error_size = error_size;
    if (setjmp(reader->manager.jump)) return -1;
    uint32_t done = 0;
    uint32_t width = reader->info.output_width;
    while (done < rows && reader->info.output_scanline < reader->info.output_height) {
        uint8_t *row = rgb + (size_t)done * stride;
        JSAMPROW target = reader->cmyk ? reader->cmyk_row : row;
        if (jpeg_read_scanlines(&reader->info, &target, 1) != 1) {
            copy_message(error, error_size, "the JPEG data ended early");
            return -1;
        }
        if (reader->cmyk) {
            cmyk_to_rgb(reader->cmyk_row, reader->inverted, row, 3, width);
        }
        done++;
    }
    return (int)done;
}

void strata_jpeg_reader_close(strata_jpeg_reader *reader) {
    if (reader == NULL) return;
    if (reader->started) jpeg_destroy_decompress(&reader->info);
    if (reader->file) fclose(reader->file);
    free(reader->cmyk_row);
    free(reader);
}
