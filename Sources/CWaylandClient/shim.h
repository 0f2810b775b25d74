// libwayland-client (Debian's libwayland-dev): the connection, proxies and
// the core protocol's requests (static inline in its generated header,
// which Swift calls directly).
#include <wayland-client.h>
// Cursor themes as wl_buffers (libwayland-cursor, also libwayland-dev).
#include <wayland-cursor.h>
// Client-side decorations where the compositor draws none (libdecor-0-dev;
// by its path under /usr/include, which needs no -I flag from pkg-config).
#include <libdecor-0/libdecor.h>
