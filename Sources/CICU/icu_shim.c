// ICU's C functions carry its version in their names (ubrk_open_72) through
// macros Swift cannot import, so the break iterators are driven from C.
#include "CICU.h"
#include <unicode/ubidi.h>
#include <unicode/ubrk.h>
#include <unicode/utypes.h>
#include <string.h>

long strata_icu_boundaries(const uint16_t *text, long length, int kind, const char *locale,
                           long *offsets, uint8_t *mandatory, long capacity,
                           char *error, long error_size) {
    if (length < 0 || length > 0x7fffffff) {
        strncpy(error, "text too long", (size_t)error_size);
        return -1;
    }
    UErrorCode status = U_ZERO_ERROR;
    UBreakIteratorType type = kind == 0 ? UBRK_CHARACTER : kind == 1 ? UBRK_LINE : kind == 3 ? UBRK_SENTENCE : UBRK_WORD;
    UBreakIterator *it = ubrk_open(type, locale, (const UChar *)text, (int32_t)length, &status);
    if (U_FAILURE(status) || it == NULL) {
        strncpy(error, u_errorName(status), (size_t)error_size);
        if (error_size > 0) error[error_size - 1] = 0;
        if (it) ubrk_close(it);
        return -1;
    }
    long count = 0;
    for (int32_t b = ubrk_first(it); b != UBRK_DONE; b = ubrk_next(it)) {
        if (count < capacity) {
            offsets[count] = b;
            if (mandatory) {
                int32_t rule = ubrk_getRuleStatus(it);
                // Line breaks: whether the break is mandatory; word
                // boundaries: whether the segment before is a word (letters,
                // numbers, kana, ideographs), not spaces or punctuation.
                mandatory[count] = kind == 1 ? (rule >= UBRK_LINE_HARD && rule < UBRK_LINE_HARD_LIMIT)
                                 : kind == 2 ? rule >= UBRK_WORD_NONE_LIMIT : 0;
            }
        }
        count++;
    }
    ubrk_close(it);
    return count;
}

int strata_icu_base_direction(const uint16_t *text, long length) {
    if (length <= 0 || length > 0x7fffffff) return -1;
    UBiDiDirection d = ubidi_getBaseDirection((const UChar *)text, (int32_t)length);
    return d == UBIDI_LTR ? 0 : d == UBIDI_RTL ? 1 : -1;
}

int strata_icu_bidi_levels(const uint16_t *text, long length, int base,
                           uint8_t *levels, uint8_t *paragraph_levels) {
    if (length <= 0 || length > 0x7fffffff) return -1;
    UErrorCode status = U_ZERO_ERROR;
    UBiDi *bidi = ubidi_openSized((int32_t)length, 0, &status);
    if (U_FAILURE(status) || bidi == NULL) return -1;
    UBiDiLevel para = base == 0 ? 0 : base == 1 ? 1 : UBIDI_DEFAULT_LTR;
    ubidi_setPara(bidi, (const UChar *)text, (int32_t)length, para, NULL, &status);
    if (U_FAILURE(status)) {
        ubidi_close(bidi);
        return -1;
    }
    const UBiDiLevel *resolved = ubidi_getLevels(bidi, &status);
    if (U_FAILURE(status) || resolved == NULL) {
        ubidi_close(bidi);
        return -1;
    }
    memcpy(levels, resolved, (size_t)length);
    int32_t count = ubidi_countParagraphs(bidi);
    for (int32_t p = 0; p < count; p++) {
        int32_t start = 0, limit = 0;
        UBiDiLevel level = 0;
        ubidi_getParagraphByIndex(bidi, p, &start, &limit, &level, &status);
        if (U_FAILURE(status)) break;
        for (int32_t i = start; i < limit && i < length; i++) paragraph_levels[i] = level;
    }
    ubidi_close(bidi);
    return U_FAILURE(status) ? -1 : 0;
}
