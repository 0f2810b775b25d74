// Xlib, its shared-memory extension (MIT-SHM) and XInput 2, with what Swift
// cannot import from them: Xlib's function-like macros are wrapped in static
// inline functions here.
#ifndef STRATA_CX11_SHIM_H
#define STRATA_CX11_SHIM_H

#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/Xatom.h>
#include <X11/Xresource.h>
#include <X11/cursorfont.h>
#include <X11/keysym.h>
#include <X11/XKBlib.h>
#include <X11/extensions/XShm.h>
#include <X11/extensions/XInput2.h>
#include <sys/ipc.h>
#include <sys/shm.h>
#include <stdlib.h>

static inline int strata_x_connection_number(Display *d) { return ConnectionNumber(d); }
static inline int strata_x_default_screen(Display *d) { return DefaultScreen(d); }
static inline Window strata_x_root_window(Display *d, int s) { return RootWindow(d, s); }
static inline Visual *strata_x_default_visual(Display *d, int s) { return DefaultVisual(d, s); }
static inline int strata_x_default_depth(Display *d, int s) { return DefaultDepth(d, s); }
static inline unsigned long strata_x_black_pixel(Display *d, int s) { return BlackPixel(d, s); }
static inline unsigned long strata_x_white_pixel(Display *d, int s) { return WhitePixel(d, s); }
static inline int strata_x_display_width(Display *d, int s) { return DisplayWidth(d, s); }
static inline int strata_x_display_height(Display *d, int s) { return DisplayHeight(d, s); }

/// Sets an event mask bit in an XI2 mask (XISetMask is a macro).
static inline void strata_xi_set_mask(unsigned char *mask, int event) { XISetMask(mask, event); }
/// Whether bit `bit` of an XI2 valuator mask is set (XIMaskIsSet is a macro).
static inline int strata_xi_mask_is_set(const unsigned char *mask, int bit) { return XIMaskIsSet(mask, bit); }

/// Destroys an XImage (XDestroyImage is a macro over the image's own function).
static inline int strata_x_destroy_image(XImage *image) { return XDestroyImage(image); }
/// Reads one pixel of an XImage (XGetPixel is a macro too).
static inline unsigned long strata_x_get_pixel(XImage *image, int x, int y) { return XGetPixel(image, x, y); }

/// The `shmat` failure value, `(void *) -1`, which Swift cannot spell as a constant.
static inline int strata_shm_failed(const void *address) { return address == (void *)-1; }

/// An input context for `im` on window `w`, without preedit or status
/// areas (XCreateIC is variadic, which Swift cannot call).
static inline XIC strata_x_create_ic(XIM im, Window w) {
    return XCreateIC(im, XNInputStyle, XIMPreeditNothing | XIMStatusNothing, XNClientWindow, w, XNFocusWindow, w, (char *)NULL);
}

/// Whether `im` offers input style `style` (XGetIMValues is variadic).
static inline int strata_x_im_supports_style(XIM im, unsigned long style) {
    XIMStyles *styles = NULL;
    if (XGetIMValues(im, XNQueryInputStyle, &styles, (char *)NULL) != NULL || styles == NULL) return 0;
    int found = 0;
    for (unsigned short i = 0; i < styles->count_styles; i++) {
        if (styles->supported_styles[i] == style) found = 1;
    }
    XFree(styles);
    return found;
}

/// Where an input context's pre-edit callbacks go: `report` is called
/// with `context` and what happened (`kind`: 0 start, 1 done, 2 draw, 3
/// caret), the input method's caret, the range of the pre-edit that
/// changed (`first`, `length`, in characters) and the new text of that
/// range as UTF-8 (NULL for none). The callback structures live here, as
/// long as the input context.
typedef void (*strata_preedit_report)(void *context, int kind, int caret, int first, int length, const char *text);
struct strata_preedit_target {
    void *context;
    strata_preedit_report report;
    XICCallback start;
    XIMCallback done, draw, caret;
};

static int strata_xim_preedit_start(XIC ic, XPointer client, XPointer call) {
    (void)ic; (void)call;
    struct strata_preedit_target *t = (struct strata_preedit_target *)client;
    t->report(t->context, 0, 0, 0, 0, NULL);
    return -1;  // no limit on the pre-edit's length
}

static void strata_xim_preedit_done(XIM ic, XPointer client, XPointer call) {
    (void)ic; (void)call;
    struct strata_preedit_target *t = (struct strata_preedit_target *)client;
    t->report(t->context, 1, 0, 0, 0, NULL);
}

static void strata_xim_preedit_draw(XIM ic, XPointer client, XPointer call) {
    (void)ic;
    struct strata_preedit_target *t = (struct strata_preedit_target *)client;
    XIMPreeditDrawCallbackStruct *d = (XIMPreeditDrawCallbackStruct *)call;
    if (d == NULL) return;
    char *converted = NULL;
    const char *text = NULL;
    if (d->text != NULL) {
        if (!d->text->encoding_is_wchar) {
            text = d->text->string.multi_byte != NULL ? d->text->string.multi_byte : "";
        } else if (d->text->string.wide_char != NULL) {
            // Wide characters (UCS-4 here) as UTF-8.
            size_t n = d->text->length;
            converted = (char *)malloc(n * 4 + 1);
            if (converted == NULL) return;
            size_t o = 0;
            for (size_t i = 0; i < n; i++) {
                unsigned long c = (unsigned long)d->text->string.wide_char[i];
                if (c < 0x80) { converted[o++] = (char)c; }
                else if (c < 0x800) { converted[o++] = (char)(0xC0 | (c >> 6)); converted[o++] = (char)(0x80 | (c & 0x3F)); }
                else if (c < 0x10000) {
                    converted[o++] = (char)(0xE0 | (c >> 12)); converted[o++] = (char)(0x80 | ((c >> 6) & 0x3F));
                    converted[o++] = (char)(0x80 | (c & 0x3F));
                } else if (c < 0x110000) {
                    converted[o++] = (char)(0xF0 | (c >> 18)); converted[o++] = (char)(0x80 | ((c >> 12) & 0x3F));
                    converted[o++] = (char)(0x80 | ((c >> 6) & 0x3F)); converted[o++] = (char)(0x80 | (c & 0x3F));
                }
            }
            converted[o] = 0;
            text = converted;
        } else {
            text = "";
        }
    }
    t->report(t->context, 2, d->caret, d->chg_first, d->chg_length, text);
    free(converted);
}

static void strata_xim_preedit_caret(XIM ic, XPointer client, XPointer call) {
    (void)ic;
    struct strata_preedit_target *t = (struct strata_preedit_target *)client;
    XIMPreeditCaretCallbackStruct *c = (XIMPreeditCaretCallbackStruct *)call;
    if (c == NULL) return;
    // Only absolute positions are taken; the others leave the caret.
    if (c->direction == XIMAbsolutePosition) t->report(t->context, 3, c->position, 0, 0, NULL);
}

/// An input context for `im` on window `w` whose pre-edit the client draws
/// (on-the-spot), reporting to `target`; no status area.
static inline XIC strata_x_create_ic_preedit_callbacks(XIM im, Window w, struct strata_preedit_target *target) {
    target->start.client_data = (XPointer)target;
    target->start.callback = strata_xim_preedit_start;
    target->done.client_data = (XPointer)target;
    target->done.callback = strata_xim_preedit_done;
    target->draw.client_data = (XPointer)target;
    target->draw.callback = strata_xim_preedit_draw;
    target->caret.client_data = (XPointer)target;
    target->caret.callback = strata_xim_preedit_caret;
    XVaNestedList preedit = XVaCreateNestedList(0, XNPreeditStartCallback, &target->start, XNPreeditDoneCallback,
                                                &target->done, XNPreeditDrawCallback, &target->draw,
                                                XNPreeditCaretCallback, &target->caret, (char *)NULL);
    if (preedit == NULL) return NULL;
    XIC ic = XCreateIC(im, XNInputStyle, XIMPreeditCallbacks | XIMStatusNothing, XNClientWindow, w, XNFocusWindow, w,
                       XNPreeditAttributes, preedit, (char *)NULL);
    XFree(preedit);
    return ic;
}

/// Ends the context's composition, dropping it (`Xutf8ResetIC`, whose
/// returned text is freed here).
static inline void strata_x_reset_ic(XIC ic) {
    char *left = Xutf8ResetIC(ic);
    if (left != NULL) XFree(left);
}

/// Tells the input method where the caret is (window pixels: the spot
/// its candidate window goes under).
static inline void strata_x_set_ic_spot(XIC ic, short x, short y) {
    XPoint spot = {x, y};
    XVaNestedList attributes = XVaCreateNestedList(0, XNSpotLocation, &spot, (char *)NULL);
    if (attributes == NULL) return;
    XSetICValues(ic, XNPreeditAttributes, attributes, (char *)NULL);
    XFree(attributes);
}

/// The events `ic` needs to see (to add to the window's event mask).
static inline long strata_x_ic_filter_events(XIC ic) {
    long mask = 0;
    XGetICValues(ic, XNFilterEvents, &mask, (char *)NULL);
    return mask;
}

#endif
