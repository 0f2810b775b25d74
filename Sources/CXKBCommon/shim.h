// xkbcommon (Debian's libxkbcommon-dev): keymaps, key state and Compose
// sequences (dead keys) for the Wayland keyboard.
#include <xkbcommon/xkbcommon.h>
#include <xkbcommon/xkbcommon-compose.h>
