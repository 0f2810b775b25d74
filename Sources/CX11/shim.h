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

#endif
