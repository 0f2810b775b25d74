// The interface tables of two input protocols that wlroots compositors
// (sway) offer and wayland-protocols does not carry, so no XML for them is
// in Debian to generate from: wlr's virtual pointer (version 2) and the
// virtual keyboard (version 1). Written here from their published request
// signatures; clients only send requests on them (they have no events).
// The tests and `strata-bench window` send real input through a
// compositor with them.

#include "CWaylandProtocols.h"

extern const struct wl_interface zwlr_virtual_pointer_v1_interface;
extern const struct wl_interface zwp_virtual_keyboard_v1_interface;

// Each message's argument types, for its object and new_id arguments.
static const struct wl_interface *strata_virtual_input_types[] = {
    NULL, NULL, NULL, NULL, NULL,                      // 0: five plain arguments
    &wl_seat_interface, &zwlr_virtual_pointer_v1_interface,                          // 5
    &wl_seat_interface, &wl_output_interface, &zwlr_virtual_pointer_v1_interface,     // 7
    &wl_seat_interface, &zwp_virtual_keyboard_v1_interface,                          // 10
};

static const struct wl_message zwlr_virtual_pointer_manager_v1_requests[] = {
    {"create_virtual_pointer", "?on", strata_virtual_input_types + 5},
    {"destroy", "", strata_virtual_input_types + 0},
    {"create_virtual_pointer_with_output", "2?o?on", strata_virtual_input_types + 7},
};

const struct wl_interface zwlr_virtual_pointer_manager_v1_interface = {
    "zwlr_virtual_pointer_manager_v1", 2, 3, zwlr_virtual_pointer_manager_v1_requests, 0, NULL,
};

static const struct wl_message zwlr_virtual_pointer_v1_requests[] = {
    {"motion", "uff", strata_virtual_input_types + 0},
    {"motion_absolute", "uuuuu", strata_virtual_input_types + 0},
    {"button", "uuu", strata_virtual_input_types + 0},
    {"axis", "uuf", strata_virtual_input_types + 0},
    {"frame", "", strata_virtual_input_types + 0},
    {"axis_source", "u", strata_virtual_input_types + 0},
    {"axis_stop", "uu", strata_virtual_input_types + 0},
    {"axis_discrete", "uufi", strata_virtual_input_types + 0},
    {"destroy", "", strata_virtual_input_types + 0},
};

const struct wl_interface zwlr_virtual_pointer_v1_interface = {
    "zwlr_virtual_pointer_v1", 2, 9, zwlr_virtual_pointer_v1_requests, 0, NULL,
};

static const struct wl_message zwp_virtual_keyboard_manager_v1_requests[] = {
    {"create_virtual_keyboard", "on", strata_virtual_input_types + 10},
};

const struct wl_interface zwp_virtual_keyboard_manager_v1_interface = {
    "zwp_virtual_keyboard_manager_v1", 1, 1, zwp_virtual_keyboard_manager_v1_requests, 0, NULL,
};

static const struct wl_message zwp_virtual_keyboard_v1_requests[] = {
    {"keymap", "uhu", strata_virtual_input_types + 0},
    {"key", "uuu", strata_virtual_input_types + 0},
    {"modifiers", "uuuu", strata_virtual_input_types + 0},
    {"destroy", "", strata_virtual_input_types + 0},
};

const struct wl_interface zwp_virtual_keyboard_v1_interface = {
    "zwp_virtual_keyboard_v1", 1, 4, zwp_virtual_keyboard_v1_requests, 0, NULL,
};
