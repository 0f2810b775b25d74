#ifndef STRATA_CWAYLANDPROTOCOLS_H
#define STRATA_CWAYLANDPROTOCOLS_H

#include <stddef.h>
#include <stdint.h>
#include <wayland-client.h>

// The interfaces of the protocols beyond the core one. Their tables are
// made at build time by `wayland-scanner private-code` from Debian's
// wayland-protocols XML (the WaylandScanner plugin); Swift sends their
// requests with wl_proxy_marshal_array_flags and reads their events through
// one dispatcher, so only these tables are needed, not the client headers.
extern const struct wl_interface xdg_wm_base_interface;
extern const struct wl_interface xdg_positioner_interface;
extern const struct wl_interface xdg_surface_interface;
extern const struct wl_interface xdg_toplevel_interface;
extern const struct wl_interface xdg_popup_interface;
extern const struct wl_interface zxdg_decoration_manager_v1_interface;
extern const struct wl_interface zxdg_toplevel_decoration_v1_interface;
extern const struct wl_interface wp_viewporter_interface;
extern const struct wl_interface wp_viewport_interface;
extern const struct wl_interface wp_fractional_scale_manager_v1_interface;
extern const struct wl_interface wp_fractional_scale_v1_interface;
extern const struct wl_interface zwp_text_input_manager_v3_interface;
extern const struct wl_interface zwp_text_input_v3_interface;
extern const struct wl_interface zwp_primary_selection_device_manager_v1_interface;
extern const struct wl_interface zwp_primary_selection_device_v1_interface;
extern const struct wl_interface zwp_primary_selection_offer_v1_interface;
extern const struct wl_interface zwp_primary_selection_source_v1_interface;
// Written in input_method.c: input-method-unstable-v2 (wlroots'), whose
// XML Debian does not carry (the tests' input method).
extern const struct wl_interface zwp_input_method_manager_v2_interface;
extern const struct wl_interface zwp_input_method_v2_interface;
// Written in virtual_input.c: wlroots' virtual pointer and keyboard,
// whose XML Debian does not carry (the tests' input).
extern const struct wl_interface zwlr_virtual_pointer_manager_v1_interface;
extern const struct wl_interface zwlr_virtual_pointer_v1_interface;
extern const struct wl_interface zwp_virtual_keyboard_manager_v1_interface;
extern const struct wl_interface zwp_virtual_keyboard_v1_interface;

// Their addresses, which Swift cannot take of an imported constant.
#define STRATA_WL_INTERFACE(name) \
    static inline const struct wl_interface *strata_##name(void) { return &name; }
STRATA_WL_INTERFACE(wl_compositor_interface)
STRATA_WL_INTERFACE(wl_shm_interface)
STRATA_WL_INTERFACE(wl_seat_interface)
STRATA_WL_INTERFACE(wl_pointer_interface)
STRATA_WL_INTERFACE(wl_keyboard_interface)
STRATA_WL_INTERFACE(wl_touch_interface)
STRATA_WL_INTERFACE(wl_output_interface)
STRATA_WL_INTERFACE(wl_data_device_manager_interface)
STRATA_WL_INTERFACE(wl_data_device_interface)
STRATA_WL_INTERFACE(wl_data_source_interface)
STRATA_WL_INTERFACE(wl_data_offer_interface)
STRATA_WL_INTERFACE(zwp_text_input_manager_v3_interface)
STRATA_WL_INTERFACE(zwp_text_input_v3_interface)
STRATA_WL_INTERFACE(zwp_primary_selection_device_manager_v1_interface)
STRATA_WL_INTERFACE(zwp_primary_selection_device_v1_interface)
STRATA_WL_INTERFACE(zwp_primary_selection_source_v1_interface)
STRATA_WL_INTERFACE(zwp_input_method_manager_v2_interface)
STRATA_WL_INTERFACE(zwp_input_method_v2_interface)
STRATA_WL_INTERFACE(xdg_wm_base_interface)
STRATA_WL_INTERFACE(xdg_surface_interface)
STRATA_WL_INTERFACE(xdg_toplevel_interface)
STRATA_WL_INTERFACE(zxdg_decoration_manager_v1_interface)
STRATA_WL_INTERFACE(zxdg_toplevel_decoration_v1_interface)
STRATA_WL_INTERFACE(wp_viewporter_interface)
STRATA_WL_INTERFACE(wp_viewport_interface)
STRATA_WL_INTERFACE(wp_fractional_scale_manager_v1_interface)
STRATA_WL_INTERFACE(wp_fractional_scale_v1_interface)
STRATA_WL_INTERFACE(zwlr_virtual_pointer_manager_v1_interface)
STRATA_WL_INTERFACE(zwlr_virtual_pointer_v1_interface)
STRATA_WL_INTERFACE(zwp_virtual_keyboard_manager_v1_interface)
STRATA_WL_INTERFACE(zwp_virtual_keyboard_v1_interface)
#undef STRATA_WL_INTERFACE

/// An anonymous shared-memory file of `size` bytes for wl_shm pools
/// (memfd, sealed against shrinking); -1 with errno set on failure.
int strata_wl_shm_file(size_t size);

#endif
