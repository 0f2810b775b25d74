// libwayland-client (Debian's libwayland-dev): the connection, proxies and
// the core protocol's requests (static inline in its generated header,
// which Swift calls directly).
#include <wayland-client.h>
