// The interface tables of input-method-unstable-v2, the protocol an input
// method speaks to a wlroots compositor (sway), which relays its text to
// the focused window's text-input-v3. wayland-protocols does not carry it
// (wlroots does), so Debian has no XML to generate from: written here from
// its published message signatures. The tests' input method uses it to
// compose and commit text into a window the way fcitx5 does.

#include "CWaylandProtocols.h"

extern const struct wl_interface zwp_input_method_v2_interface;
extern const struct wl_interface zwp_input_popup_surface_v2_interface;
extern const struct wl_interface zwp_input_method_keyboard_grab_v2_interface;

static const struct wl_interface *strata_input_method_types[] = {
    NULL, NULL, NULL, NULL,                                          // 0: plain arguments
    &wl_seat_interface, &zwp_input_method_v2_interface,              // 4: get_input_method
    &zwp_input_popup_surface_v2_interface, &wl_surface_interface,    // 6: get_input_popup_surface
    &zwp_input_method_keyboard_grab_v2_interface,                    // 8: grab_keyboard
};

static const struct wl_message zwp_input_method_manager_v2_requests[] = {
    {"get_input_method", "on", strata_input_method_types + 4},
    {"destroy", "", strata_input_method_types + 0},
};

const struct wl_interface zwp_input_method_manager_v2_interface = {
    "zwp_input_method_manager_v2", 1, 2, zwp_input_method_manager_v2_requests, 0, NULL,
};

static const struct wl_message zwp_input_method_v2_requests[] = {
    {"commit_string", "s", strata_input_method_types + 0},
    {"set_preedit_string", "sii", strata_input_method_types + 0},
    {"delete_surrounding_text", "uu", strata_input_method_types + 0},
    {"commit", "u", strata_input_method_types + 0},
    {"get_input_popup_surface", "no", strata_input_method_types + 6},
    {"grab_keyboard", "n", strata_input_method_types + 8},
    {"destroy", "", strata_input_method_types + 0},
};

static const struct wl_message zwp_input_method_v2_events[] = {
    {"activate", "", strata_input_method_types + 0},
    {"deactivate", "", strata_input_method_types + 0},
    {"surrounding_text", "suu", strata_input_method_types + 0},
    {"text_change_cause", "u", strata_input_method_types + 0},
    {"content_type", "uu", strata_input_method_types + 0},
    {"done", "", strata_input_method_types + 0},
    {"unavailable", "", strata_input_method_types + 0},
};

const struct wl_interface zwp_input_method_v2_interface = {
    "zwp_input_method_v2", 1, 7, zwp_input_method_v2_requests, 7, zwp_input_method_v2_events,
};

static const struct wl_message zwp_input_popup_surface_v2_requests[] = {
    {"destroy", "", strata_input_method_types + 0},
};

static const struct wl_message zwp_input_popup_surface_v2_events[] = {
    {"text_input_rectangle", "iiii", strata_input_method_types + 0},
};

const struct wl_interface zwp_input_popup_surface_v2_interface = {
    "zwp_input_popup_surface_v2", 1, 1, zwp_input_popup_surface_v2_requests, 1, zwp_input_popup_surface_v2_events,
};

static const struct wl_message zwp_input_method_keyboard_grab_v2_requests[] = {
    {"release", "", strata_input_method_types + 0},
};

static const struct wl_message zwp_input_method_keyboard_grab_v2_events[] = {
    {"keymap", "uhu", strata_input_method_types + 0},
    {"key", "uuuu", strata_input_method_types + 0},
    {"modifiers", "uuuuu", strata_input_method_types + 0},
    {"repeat_info", "ii", strata_input_method_types + 0},
};

const struct wl_interface zwp_input_method_keyboard_grab_v2_interface = {
    "zwp_input_method_keyboard_grab_v2", 1, 1, zwp_input_method_keyboard_grab_v2_requests, 4,
    zwp_input_method_keyboard_grab_v2_events,
};
