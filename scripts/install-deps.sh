#!/usr/bin/env bash
# Installs the Debian packages and fonts Strata builds and tests against, when
# they are missing. Safe to run repeatedly; does nothing (and says nothing) on a
# machine that has them. The README's two commands, ./strata and ./run-tests,
# run it first.
set -euo pipefail
sudo_cmd=""
[ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
updated=0
install() {
  echo "installing: $*" >&2
  if [ $updated -eq 0 ]; then $sudo_cmd apt-get update -q; updated=1; fi
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -q "$@"
}

# Required: the build needs these.
needed=()
command -v pkg-config >/dev/null 2>&1 || needed+=(pkg-config)
pkg-config --exists libpng 2>/dev/null || needed+=(libpng-dev)
pkg-config --exists libjpeg 2>/dev/null || needed+=(libjpeg-dev)
# zlib for PDF's compressed streams (libpng-dev brings it too).
pkg-config --exists zlib 2>/dev/null || needed+=(zlib1g-dev)
pkg-config --exists libisal 2>/dev/null || needed+=(libisal-dev)
pkg-config --exists freetype2 2>/dev/null || needed+=(libfreetype-dev)
pkg-config --exists harfbuzz 2>/dev/null || needed+=(libharfbuzz-dev)
pkg-config --exists icu-uc 2>/dev/null || needed+=(libicu-dev)
pkg-config --exists fontconfig 2>/dev/null || needed+=(libfontconfig-dev)
# D-Bus, which the accessibility bridge speaks AT-SPI2 over (issue 41).
pkg-config --exists dbus-1 2>/dev/null || needed+=(libdbus-1-dev)
# X11 (issue 20's window): Xlib, MIT-SHM (libxext), XInput 2 (libxi), XTest
# for synthetic input (libxtst), and Xvfb, the virtual display the window
# tests and `strata-bench window` start when there is no display.
pkg-config --exists x11 2>/dev/null || needed+=(libx11-dev)
pkg-config --exists xext 2>/dev/null || needed+=(libxext-dev)
pkg-config --exists xi 2>/dev/null || needed+=(libxi-dev)
pkg-config --exists xtst 2>/dev/null || needed+=(libxtst-dev)
command -v Xvfb >/dev/null 2>&1 || needed+=(xvfb)
# Wayland (issue 39's window): the client library and wayland-scanner
# (libwayland-dev, libwayland-bin), the protocols' XML the build generates
# code from (wayland-protocols), and weston, the headless compositor the
# Wayland tests start.
pkg-config --exists wayland-client 2>/dev/null || needed+=(libwayland-dev)
command -v wayland-scanner >/dev/null 2>&1 || needed+=(libwayland-bin)
[ -e /usr/share/wayland-protocols/stable/xdg-shell/xdg-shell.xml ] || needed+=(wayland-protocols)
command -v weston >/dev/null 2>&1 || needed+=(weston)
# The Wayland keyboard: keymaps and Compose sequences (xkbcommon), with the
# keyboard layouts' and Compose tables' data (xkb-data, libx11-data).
pkg-config --exists xkbcommon 2>/dev/null || needed+=(libxkbcommon-dev)
[ -e /usr/share/X11/xkb/symbols/us ] || needed+=(xkb-data)
[ -e /usr/share/X11/locale/compose.dir ] || needed+=(libx11-data)
# Title bars where the compositor draws none (GNOME, weston): libdecor and
# its cairo plugin, which draws them; cursors from the desktop's cursor
# theme (libwayland-cursor, in libwayland-dev; Adwaita's cursors).
pkg-config --exists libdecor-0 2>/dev/null || needed+=(libdecor-0-dev)
ls /usr/lib/*/libdecor/plugins-1/libdecor-cairo.so >/dev/null 2>&1 || needed+=(libdecor-0-plugin-1-cairo)
[ -e /usr/share/icons/Adwaita/cursors/left_ptr ] || needed+=(adwaita-icon-theme)
# sway (wlroots), the second compositor the Wayland tests start: it draws
# server-side decorations and takes virtual pointers and keyboards, so the
# tests and `strata-bench window` can send real input through it.
command -v sway >/dev/null 2>&1 || needed+=(sway)
# Time zones: date axes tick on local wall-clock time (the tests cross
# daylight-saving changes in Berlin and New York).
[ -e /usr/share/zoneinfo/Europe/Berlin ] || needed+=(tzdata)
# The faces the gallery, the text benchmark and the tests name: DejaVu, and
# WenQuanYi Micro Hei for Chinese (the library works without it, drawing
# boxes, but the gallery's text would be wrong and the text tests fail).
# (The list is read once: `grep -q` on a pipe would end the pipe early, which
# `pipefail` counts as a failure.)
families="$(fc-list : family 2>/dev/null | tr ',' '\n' || true)"
has_family() { grep -qx "$1" <<<"$families"; }
has_family "DejaVu Sans" || needed+=(fonts-dejavu-core)
has_family "WenQuanYi Micro Hei" || needed+=(fonts-wqy-microhei)
# Issue 18's scripts: Arabic and Devanagari (Noto, from fonts-noto-core) and
# colour emoji. hb-shape (libharfbuzz-bin) is what the shaping tests compare
# glyphs with.
has_family "Noto Color Emoji" || needed+=(fonts-noto-color-emoji)
command -v hb-shape >/dev/null 2>&1 || needed+=(libharfbuzz-bin)
# A face of CFF outlines (OpenType `OTTO`), which PDFs embed as such.
has_family "Nimbus Sans" || needed+=(fonts-urw-base35)
# Issue 40's documents are checked with tools no one here wrote: qpdf
# (structure), poppler (pdftoppm renders, pdfinfo and pdftotext read) and
# librsvg (rsvg-convert renders SVG).
command -v qpdf >/dev/null 2>&1 || needed+=(qpdf)
command -v pdftoppm >/dev/null 2>&1 || needed+=(poppler-utils)
command -v rsvg-convert >/dev/null 2>&1 || needed+=(librsvg2-bin)
[ ${#needed[@]} -eq 0 ] || install "${needed[@]}"
# Issue 41's input methods: the tests type pinyin through ibus (its XIM
# server, ibus-x11, is in the ibus package) with the libpinyin engine, on a
# session bus of their own (dbus-daemon). Without recommends: with them,
# ibus brings a desktop's worth of packages.
lean=()
command -v ibus-daemon >/dev/null 2>&1 || lean+=(ibus)
[ -e /usr/share/ibus/component/libpinyin.xml ] || lean+=(ibus-libpinyin)
command -v dbus-daemon >/dev/null 2>&1 || lean+=(dbus-daemon)
# Accessibility: the accessibility bus and its registry (at-spi2-core), and
# pyatspi, the library Orca reads through, which the tests read the views
# with (Debian's python3, not another on the PATH).
[ -x /usr/libexec/at-spi-bus-launcher ] || lean+=(at-spi2-core)
[ -e /usr/lib/python3/dist-packages/pyatspi/__init__.py ] || lean+=(python3-pyatspi)
[ ${#lean[@]} -eq 0 ] || install --no-install-recommends "${lean[@]}"
# An image may carry fonts-noto-core as installed with its font files
# stripped: reinstalling brings them back.
if ! has_family "Noto Sans Arabic" || ! has_family "Noto Sans Devanagari"; then
  if dpkg -s fonts-noto-core >/dev/null 2>&1; then
    echo "reinstalling: fonts-noto-core (its fonts are missing)" >&2
    if [ $updated -eq 0 ]; then $sudo_cmd apt-get update -q; updated=1; fi
    DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -q --reinstall fonts-noto-core
  else
    install fonts-noto-core
  fi
fi
