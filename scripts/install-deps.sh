#!/usr/bin/env bash
# Installs the Debian packages Strata builds against, when they are missing.
# Safe to run repeatedly; does nothing on a machine that has them.
set -euo pipefail
needed=()
command -v pkg-config >/dev/null 2>&1 || needed+=(pkg-config)
pkg-config --exists libpng 2>/dev/null || needed+=(libpng-dev)
pkg-config --exists libjpeg 2>/dev/null || needed+=(libjpeg-dev)
pkg-config --exists freetype2 2>/dev/null || needed+=(libfreetype-dev)
pkg-config --exists fontconfig 2>/dev/null || needed+=(libfontconfig-dev)
fc-list 2>/dev/null | grep -q DejaVuSans.ttf || needed+=(fonts-dejavu-core)
# A CJK face for the text tests' fallback cases (the library itself works without one).
[ "${STRATA_SKIP_CJK_FONT:-}" = 1 ] || fc-list 2>/dev/null | grep -qi wqy || needed+=(fonts-wqy-microhei)
if [ ${#needed[@]} -gt 0 ]; then
  echo "installing: ${needed[*]}" >&2
  sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -q "${needed[@]}"
fi
